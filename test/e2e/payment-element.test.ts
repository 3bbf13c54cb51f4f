import assert from 'node:assert/strict';
import { waitFor } from '../../testkit/wait.ts';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CARDS, digitsOf } from './helpers/checkout.ts';
import { seriousViolations } from './helpers/axe.ts';
import { cardFrame, checkout, fillBasket, openShop, orderShown, typeShopCard } from './helpers/shop.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';
import { clickOrPress, dialogOpen } from './helpers/frame-click.ts';

/**
 * Issue 24, `<cpe-payment>` in Chromium: the shop's checkout offers it first. Every method the
 * session allows as tabs (an accordion below 400 px), each wallet shown only where available (its
 * `cpe:availability` names it), one Pay button that pays with the chosen tab, or the page's own
 * button through `pay()`; outcomes said in the element as a Flow says them.
 */
let stack: Stack;

/** The shop's card checkout with a basket: a page of the shop's origin for `mountOwn`. */
async function openOwnCheckout(page: Page): Promise<void> {
  await fillBasket(page);
  await page.goto(`${stack.demoUrl}/checkout?method=card`);
  await page.waitForSelector('body[data-ready]', { state: 'attached' });
}

/**
 * In place of the checkout's element, the SDK's own (`elements[factory](options)`, `element` in the
 * script) with the shop's intent route and middleware: runs `made` once it is made and `ready` once
 * it is ready, whose value it returns.
 */
function mountOwn(page: Page, options: Record<string, unknown>, script: { factory?: string; made?: string; ready: string }): Promise<unknown> {
  return page.evaluate(`(async () => {
    const { createElements } = await import(${JSON.stringify(`${stack.serviceUrl}/sdk/cpe.js`)});
    const config = JSON.parse(document.getElementById('cpe-config').textContent);
    document.querySelector('#pay-element').replaceChildren();
    const elements = await createElements({ pubKey: config.publicKey, createServerIntent: () => fetch('/shop/intent?method=card', { method: 'POST' }).then((r) => r.json()), middleware: { authorise: '/api/cpe/authorise' } });
    const element = elements[${JSON.stringify(script.factory ?? 'paymentElement')}]({ element: '#pay-element', ...${JSON.stringify(options)} });
    ${script.made ?? ''}
    await element.init();
    await element.awaitReady();
    ${script.ready}
  })()`);
}

/** For `mountOwn`: the first height the element reserved, and at ready the height its frame is shown at. */
const RESERVED_AND_SHOWN = {
  made: `const reserved = []; new MutationObserver(() => element.style.minHeight && reserved.push(element.style.minHeight)).observe(element, { attributes: true, attributeFilter: ['style'] });`,
  ready: `return { reserved: reserved[0], shown: element.shadowRoot.querySelector('iframe').style.height };`,
};

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('<cpe-payment>: every method in one element', { timeout: scaled(600_000) }, () => {
  it('the checkout opens on it: three tabs, arrow keys between them, the card pays with the one Pay button', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await page.goto(`${stack.demoUrl}/checkout`);
      await page.waitForSelector('body[data-ready]', { state: 'attached' });
      const frame = cardFrame(page);
      const tabs = frame.getByRole('tab');
      assert.deepEqual(await tabs.allTextContents().then((t) => t.map((s) => s.trim())), ['Card', 'Wallet A', 'Wallet B']);
      assert.equal(await frame.getByRole('tab', { selected: true }).textContent().then((t) => t!.trim()), 'Card');
      // The ARIA tabs pattern: the selection follows the arrow keys.
      await frame.getByRole('tab', { name: 'Card' }).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await frame.getByRole('tab', { selected: true }).textContent().then((t) => t!.trim()), 'Wallet A');
      await frame.getByRole('button', { name: 'Pay with Wallet A' }).waitFor();
      await page.keyboard.press('ArrowLeft');
      await frame.getByLabel('Card number').waitFor();
      await typeShopCard(page, CARDS.visa);
      await frame.getByRole('button', { name: 'Pay £32.50' }).click();
      const order = await orderShown(page);
      assert.equal(order.status, 'paid');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a wallet tab pays through its sheet with the same Pay button', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'payment');
      const frame = cardFrame(page);
      await frame.getByRole('tab', { name: 'Wallet B' }).click();
      await frame.getByText('You will confirm the payment in Wallet B.').waitFor();
      await clickOrPress(frame.getByRole('button', { name: 'Pay with Wallet B' }), dialogOpen(page));
      const sheet = page.frameLocator('dialog iframe');
      await sheet.getByLabel(/4242/).check();
      await sheet.getByRole('button', { name: 'Approve' }).click();
      const order = await orderShown(page);
      assert.equal(order.status, 'paid');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a declined card: the outcome in the element, Try again clears only the number', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'payment');
      const frame = cardFrame(page);
      await typeShopCard(page, CARDS.declined);
      await frame.getByRole('button', { name: 'Pay £32.50' }).click();
      await frame.getByRole('status').filter({ hasText: 'Your card was declined. Use another card.' }).waitFor();
      await frame.getByRole('button', { name: 'Try again' }).click();
      // The form comes back once the element has cleared the number (awaited: the element answers after the click).
      await waitFor('the number cleared by Try again', async () => (await frame.getByLabel('Card number').inputValue()) === '');
      assert.equal(await frame.getByLabel('Expiry date').inputValue(), '12 / 30');
      assert.equal(await frame.getByLabel('Name on card').inputValue(), 'Ada Lovelace');
      await frame.getByLabel('Card number').pressSequentially(digitsOf(CARDS.mastercard));
      await frame.getByRole('button', { name: 'Pay £32.50' }).click();
      assert.equal((await orderShown(page)).status, 'paid');
    } finally {
      await context.close();
    }
  });

  it('below 400 px the methods are an accordion; axe finds nothing in the element', async () => {
    const { page, context } = await openShop(stack, { viewport: { width: 360, height: 800 }, bypassCSP: true });
    try {
      await fillBasket(page);
      await checkout(page, stack, 'payment');
      const frame = cardFrame(page);
      await frame.getByRole('button', { name: 'Wallet A', expanded: false }).click();
      await frame.getByRole('button', { name: 'Wallet A', expanded: true }).waitFor();
      await frame.getByText('You will confirm the payment in Wallet A.').waitFor();
      assert.equal(await frame.getByRole('tab').count(), 0);
      const inner = page.frames().find((f) => f.url().includes('/frames/payment/'))!;
      assert.deepEqual(await seriousViolations(inner), []);
      assert.deepEqual(await seriousViolations(page, '#pay-element'), []);
    } finally {
      await context.close();
    }
  });

  it('shown at ready at the height of its configured form, which then stays: a 360 px accordion, tabs, and no Pay button of its own', async () => {
    // The methods and the button came with the init, after the hello: the frame was shown at the card
    // form's height and grew 168 px (the accordion) just after ready, under a click already on its way
    // (a lost click on the "Wallet A" row in CI).
    for (const [width, payButton] of [[360, true], [1100, true], [1100, false]] as const) {
      const { page, context, problems } = await openShop(stack, { viewport: { width, height: 800 } });
      try {
        await openOwnCheckout(page);
        const atReady = await mountOwn(page, { payButton }, { ready: `return element.shadowRoot.querySelector('iframe').style.height;` });
        const frame = page.frames().find((f) => f.url().includes('/frames/payment/'))!;
        // The form once the init is applied (its methods, its button) and drawn.
        const form = await frame.evaluate(`(async () => {
          const form = document.querySelector('cpe-payment-form');
          while (!(await form.updateComplete));
          await new Promise((resolve) => requestAnimationFrame(resolve));
          return { height: Math.ceil(form.getBoundingClientRect().height), rows: form.shadowRoot.querySelectorAll('.row, .tab').length, action: form.shadowRoot.querySelectorAll('button.action').length };
        })()`);
        const where = `${width} px, payButton ${payButton}`;
        assert.equal((form as { rows: number }).rows, 3, `${where}: the three methods`);
        assert.equal((form as { action: number }).action, payButton ? 1 : 0, `${where}: its own Pay button or none`);
        assert.equal(atReady, `${(form as { height: number }).height}px`, `${where}: the frame's height at ready is its configured form's`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  it('reserves, before its frame is shown, the height it is shown at: layouts, one to three methods, its button or none, 360 and 1100 px; a Flow too', async () => {
    // It reserved the card form's minimum and 104 px whatever its methods, width and button: at
    // 360 px 284 px, then 452 px at the hello (the page below it moved by 168 px).
    const wrong: string[] = [];
    for (const width of [360, 1100]) {
      const { page, context, problems } = await openShop(stack, { viewport: { width, height: 900 } });
      try {
        await openOwnCheckout(page);
        const cases = [
          ...['stack', 'row-compact'].flatMap((layout) =>
            [undefined, ['card', 'wallet-b'], ['card']].flatMap((methods) => [true, false].map((payButton) => ['paymentElement', { layout, payButton, methods }] as const)),
          ),
          ['paymentElement', { layout: 'row', cardSchemesDisplay: 'all' }],
          ['paymentFlow', { layout: 'row-compact' }],
        ] as const;
        for (const [factory, options] of cases) {
          const heights = (await mountOwn(page, options, {
            factory,
            ...RESERVED_AND_SHOWN,
          })) as { reserved: string; shown: string };
          if (heights.reserved !== heights.shown) wrong.push(`${width} px, ${factory} ${JSON.stringify(options)}: reserved ${heights.reserved}, shown at ${heights.shown}`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('reserves the height it is shown at in other languages too: 520 px wide, where their forms take more bands than English or fewer', async () => {
    // It reserved English's bands: at 520 px Spanish (Latin America) needs three in `row`, Japanese one
    // in `row-compact` without the mark, and each changed the element's height at the hello.
    const wrong: string[] = [];
    const { page, context, problems } = await openShop(stack, { viewport: { width: 1100, height: 900 } });
    try {
      await openOwnCheckout(page);
      const cases = ['de', 'es-419', 'ja', 'en-US'].flatMap((language) =>
        ['row', 'row-compact', 'row-minimal'].flatMap((layout) => ['detected', 'none'].map((cardSchemesDisplay) => ['cardElement', { language, layout, cardSchemesDisplay, width: 520 }] as const)),
      );
      for (const [factory, options] of [...cases, ['paymentElement', { language: 'ja', layout: 'row', width: 520 }] as const]) {
        const heights = (await mountOwn(page, options, {
          factory,
          ...RESERVED_AND_SHOWN,
        })) as { reserved: string; shown: string };
        if (heights.reserved !== heights.shown) wrong.push(`${factory} ${JSON.stringify(options)}: reserved ${heights.reserved}, shown at ${heights.shown}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    assert.deepEqual(wrong, []);
  });

  it("the page's own button: payButton false, pay() pays with the chosen tab and resolves {status, paymentIntentId}; each wallet's availability is an event naming it", async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await openOwnCheckout(page);
      const heard = await mountOwn(
        page,
        { payButton: false },
        {
          made: `const events = []; element.addEventListener('cpe:availability', (e) => events.push(e.detail));`,
          ready: `window.paymentElement = element; return { events, availability: await element.availability };`,
        },
      );
      assert.deepEqual((heard as { events: unknown[] }).events, [
        { method: 'wallet-a', available: true },
        { method: 'wallet-b', available: true },
      ]);
      const frame = page.frameLocator('#pay-element cpe-payment iframe');
      await frame.getByRole('tab', { name: 'Card' }).waitFor();
      assert.equal(await frame.getByRole('button', { name: /^Pay/ }).count(), 0, 'no Pay button of its own');
      await typeShopCard(page, CARDS.visa);
      const result = (await page.evaluate('window.paymentElement.pay()')) as { status: string; paymentIntentId: string; error?: unknown };
      assert.equal(result.status, 'succeeded');
      assert.match(result.paymentIntentId, /^pi_/);
      assert.equal(result.error, undefined);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
