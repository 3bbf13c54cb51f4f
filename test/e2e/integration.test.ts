import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CARDS, openCheckout, typeCard } from './helpers/checkout.ts';
import { parseCsp, startStack, type Stack } from '../../testkit/stack.ts';
import { waitFor } from '../../testkit/wait.ts';
import { pressTab } from './helpers/frame-click.ts';

/** What integrators hit with other SDKs, on the demo merchant's pages (another origin than the service). */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** Frames inside the page's <cpe-card> (a function: the page's CSP forbids evaluating strings). */
const frameCount = () => {
  const el = document.querySelector('cpe-card');
  return el?.shadowRoot ? el.shadowRoot.querySelectorAll('iframe').length : -1;
};
/** The autocomplete token of the focused input inside the frame, through the Lit app's shadow root. */
const focusedToken = () => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active?.getAttribute('autocomplete') ?? active?.tagName ?? null;
};

describe('no 2 px frame, no flash while loading', () => {
  it('reserves the minimum height at once and shows a skeleton until ready, then sizes to content', async () => {
    const { page, context } = await stack.newPage();
    try {
      // Hold the frame page back so the loading state can be seen.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/frames/card-form/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${stack.demoUrl}/components/card?layout=row`);
      await page.waitForFunction(() => document.querySelector('cpe-card')?.shadowRoot?.querySelectorAll('iframe').length === 1);
      const loading = await page.evaluate(() => {
        const el = document.querySelector('cpe-card')!;
        const iframe = el.shadowRoot!.querySelector('iframe')!;
        const skeleton = el.shadowRoot!.querySelector('[part~="skeleton"]');
        return {
          height: el.getBoundingClientRect().height,
          skeletonVisible: !!skeleton && getComputedStyle(skeleton).display !== 'none' && skeleton.getBoundingClientRect().height > 0,
          iframeVisible: getComputedStyle(iframe).visibility !== 'hidden' && getComputedStyle(iframe).opacity !== '0',
        };
      });
      assert.ok(loading.height >= 48, `reserved at once: ${loading.height}px`);
      assert.ok(loading.skeletonVisible, 'a skeleton shows while the frame loads');
      assert.equal(loading.iframeVisible, false, 'the frame stays hidden until ready');
      release();
      await page.locator('#status[data-state="ready"]').waitFor();
      const ready = await page.evaluate(() => {
        const el = document.querySelector('cpe-card')!;
        const iframe = el.shadowRoot!.querySelector('iframe')!;
        return { iframe: iframe.getBoundingClientRect().height, host: el.getBoundingClientRect().height };
      });
      assert.ok(ready.iframe > 48, `sized to content: ${ready.iframe}px`);
      // No inner scrollbar: the frame's document fits its height.
      const frame = page.frames().find((f) => f.url().includes('/frames/card-form/'))!;
      const fits = await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1);
      assert.ok(fits, 'the frame content fits without scrolling');
    } finally {
      await context.close();
    }
  });

  it('a validation message grows the frame instead of being clipped', async () => {
    const { page, context } = await openCheckout(stack, '/components/card', { layout: 'stack' });
    try {
      const before = await page.evaluate(() => document.querySelector('cpe-card')!.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height);
      const frame = page.frameLocator('iframe[title="Card payment"]');
      await frame.getByLabel('Card number').pressSequentially('4242424242424241');
      await frame.getByLabel('Expiry date').click();
      await page.waitForFunction(
        (h) => document.querySelector('cpe-card')!.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height > h,
        before,
      );
      const card = page.frames().find((f) => f.url().includes('/frames/card-form/'))!;
      assert.ok(await card.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), 'no clipping');
      assert.equal(await frame.getByLabel('Card number').getAttribute('aria-invalid'), 'true');
    } finally {
      await context.close();
    }
  });
});

describe('double mounts and removal', () => {
  it('reconnecting the element and calling init() twice leaves one frame and a working bridge; removing releases it', async () => {
    const { page, context, problems } = await openCheckout(stack, '/components/card');
    try {
      assert.equal(await page.evaluate(frameCount), 1);
      // React StrictMode style: disconnect and reconnect at once, then init() again.
      await page.evaluate(async () => {
        const el = document.querySelector('cpe-card')! as HTMLElement & { init(): Promise<void>; awaitReady(): Promise<void> };
        const parent = el.parentNode!;
        parent.removeChild(el);
        parent.appendChild(el);
        await el.init();
        await el.init();
        await el.awaitReady();
      });
      assert.equal(await page.evaluate(frameCount), 1, 'one frame after reconnect and init twice');
      assert.equal(page.frames().filter((f) => f.url().includes('/frames/card-form/')).length, 1, 'one frame document');
      // The bridge still works: tokenise through it.
      await typeCard(page, CARDS.visa);
      const token = await page.evaluate(async () => ((await (window as any).demo.element.tokenise()) as { data: { cp_card_token: string } }).data.cp_card_token);
      assert.match(token, /^tok_/);
      // Removing releases the frame.
      await page.evaluate(() => document.querySelector('cpe-card')!.remove());
      // What stays is the SDK's hidden empty page of the service, which keeps its renderer process for a next mount (components/internal/frame.ts).
      await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.hidden && new URL(f.src).pathname === '/frames/keep/'));
      assert.equal(page.frames().filter((f) => f.url().includes('/frames/card-form/')).length, 0, 'the frame is gone');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

describe('a card mounted again', () => {
  it("finds the service's renderer process alive: the SDK keeps one hidden page of the service", async () => {
    const { page, context, problems } = await openCheckout(stack, '/components/card');
    const cdp = await stack.browser.newBrowserCDPSession();
    try {
      const renderers = async () =>
        ((await cdp.send('SystemInfo.getProcessInfo')).processInfo as { type: string; id: number }[])
          .filter((p) => p.type === 'renderer')
          .map((p) => p.id)
          .sort();
      const kept = () => [...document.querySelectorAll('iframe')].filter((f) => f.hidden && new URL(f.src).pathname === '/frames/keep/').length;
      await page.waitForFunction(kept);
      assert.equal(await page.evaluate(kept), 1, 'one hidden page of the service');
      const before = await renderers();
      await page.evaluate(() => {
        const el = document.querySelector('cpe-card')!;
        (window as unknown as { parked: [Element, ParentNode] }).parked = [el, el.parentNode!];
        el.remove();
      });
      await waitFor('the card frame is gone', () => page.frames().every((f) => !f.url().includes('/frames/card-form/')));
      await page.evaluate(async () => {
        const [el, parent] = (window as unknown as { parked: [Element & { init(): Promise<void>; awaitReady(): Promise<void> }, ParentNode] }).parked;
        parent.append(el);
        await el.init();
        await el.awaitReady();
      });
      // Chromium gives each site its process and ends it with the site's last frame: without the
      // hidden page, the card's new frame started a new one (the set changed at every remount).
      assert.deepEqual(await renderers(), before, 'no renderer process started or ended');
      assert.equal(await page.evaluate(kept), 1, 'still one hidden page');
      assert.deepEqual(problems, []);
    } finally {
      await cdp.detach().catch(() => {});
      await context.close();
    }
  });
});

describe('focus and keyboard', () => {
  it('focus() reaches the first field; Tab and Shift+Tab run through the fields and out of the frame', async () => {
    const { page, context } = await openCheckout(stack, '/components/card', { layout: 'row' });
    try {
      const card = page.frames().find((f) => f.url().includes('/frames/card-form/'))!;
      const focused = () => card.evaluate(focusedToken);
      await page.evaluate(() => (document.querySelector('cpe-card') as HTMLElement).focus());
      await page.waitForFunction(() => document.activeElement?.tagName === 'CPE-CARD');
      // The frame focuses its first field when the element's request reaches it, after the page's focus moved.
      await waitFor('focus() to reach the card number', async () => (await focused()) === 'cc-number');
      for (const next of ['cc-exp', 'cc-csc', 'cc-name']) {
        await pressTab(page);
        assert.equal(await focused(), next);
      }
      await pressTab(page);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'pay', 'Tab leaves the frame to the next control of the page');
      await pressTab(page, 'Shift+Tab');
      assert.equal(await focused(), 'cc-name', 'Shift+Tab comes back into the frame');
    } finally {
      await context.close();
    }
  });
});

describe('autofill', () => {
  it('<cpe-card>: the browser fills every field of the one frame (same document)', async () => {
    const { page, context } = await openCheckout(stack, '/components/card');
    try {
      const card = page.frames().find((f) => f.url().includes('/frames/card-form/'))!;
      const names = await card.locator('input').evaluateAll((inputs) => inputs.map((i) => i.getAttribute('autocomplete')));
      for (const token of ['cc-number', 'cc-exp', 'cc-csc', 'cc-name']) assert.ok(names.includes(token), `${token} in ${names}`);
    } finally {
      await context.close();
    }
  });

  it('<cpe-card-fields>: what the browser fills in the number frame reaches the expiry, security code and name frames', async () => {
    const { page, context } = await openCheckout(stack, '/components/fields');
    try {
      const number = page.frames().find((f) => f.url().includes('field=number'))!;
      // The browser's card autofill: it fills the number frame's hidden cc-exp / cc-csc / cc-name inputs too.
      const values: [string, string][] = [['cc-number', '4242424242424242'], ['cc-exp', '12/30'], ['cc-csc', '739'], ['cc-name', 'Ada Lovelace']];
      for (const [token, value] of values) {
        await number.locator(`input[autocomplete="${token}"]`).first().evaluate((input: HTMLInputElement, v) => {
          input.value = v;
          input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        }, value);
      }
      const valueIn = (field: string) => page.frameLocator(`iframe[title="${field}"]`).locator('input:not([aria-hidden="true"])').first();
      // The other frames get their parts over the group's channel: each is awaited.
      for (const [field, value] of [['Expiry date', '12 / 30'], ['Security code', '739'], ['Name on card', 'Ada Lovelace']] as const)
        assert.equal(await waitFor(`${field} autofilled`, async () => ((await valueIn(field).inputValue()) === value ? value : undefined)), value);
    } finally {
      await context.close();
    }
  });
});

describe('frames for an unknown merchant render nothing', () => {
  it("a frame address with an unknown public key is served with frame-ancestors 'none', and the browser shows no field", async () => {
    const bogus = `${stack.serviceUrl}/frames/card-form/?pk=pk_test_unknown&lang=en`;
    const response = await fetch(bogus);
    assert.deepEqual(parseCsp(response.headers.get('content-security-policy')).get('frame-ancestors'), ["'none'"]);
    const ours = await fetch(`${stack.serviceUrl}/frames/card-form/?pk=${stack.service.credentials.publicKey}&lang=en`);
    assert.ok(parseCsp(ours.headers.get('content-security-policy')).get('frame-ancestors')?.includes(new URL(stack.demoUrl).origin));

    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${stack.demoUrl}/components/html`);
      // The browser's answer to a refused frame is its error page: it has loaded once the load event came.
      await page.evaluate(
        (src) =>
          new Promise((loaded) => {
            const iframe = document.createElement('iframe');
            iframe.id = 'bogus';
            iframe.onload = loaded;
            iframe.src = `${src}#00000000-0000-4000-8000-000000000000`;
            document.body.append(iframe);
          }),
        bogus,
      );
      assert.equal(await page.frameLocator('#bogus').getByLabel('Card number').count(), 0);
    } finally {
      await context.close();
    }
  });
});
