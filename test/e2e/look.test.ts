import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DARK_PAGE, frameOf, lookFrame as card, openSheet, payInFlow as pay, startLook, type LookSetup } from './helpers/look.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { painted } from './helpers/settle.ts';

/**
 * How the frames look and speak, against the real service and its built frames, from a merchant page
 * on another site: `theme: auto` follows the page (not only the OS), a catalogue is fetched only for
 * the language in use, the Flow after success and failure, and the 3-D Secure challenge and the
 * wallet sheet in the element's language and colour scheme.
 */
let stack: Stack;
let look: Awaited<ReturnType<typeof startLook>>;
before(async () => {
  stack = await startStack();
  look = await startLook(stack);
});
after(async () => {
  await look?.close();
  await stack?.close();
});


async function opened<T>(setup: LookSetup, run: (page: Page) => Promise<T>): Promise<T> {
  const { page, context } = await look.open(setup);
  try {
    return await run(page);
  } finally {
    await context.close();
  }
}

/** What the card frame shows: its colour scheme, its background and an input's background. */
const frameLook = (page: Page, app = 'card-form') =>
  frameOf(page, app).evaluate(() => {
    const el = document.body.firstElementChild!;
    const input = el.shadowRoot!.querySelector('input.in');
    return { scheme: el.getAttribute('scheme'), page: getComputedStyle(document.documentElement).backgroundColor, input: input && getComputedStyle(input).backgroundColor };
  });

describe('theme auto follows the page the element sits in', () => {
  it('a light page under a dark OS: light frames, no dark blocks (a page of its own white, or transparent over the canvas)', async () => {
    await opened({ factory: 'cardElement', options: { layout: 'stack' }, css: 'body{background:#fff}', context: { colorScheme: 'dark' } }, async (page) => {
      assert.deepEqual(await frameLook(page), { scheme: 'light', page: 'rgb(255, 255, 255)', input: 'rgb(255, 255, 255)' });
    });
    await opened({ factory: 'cardElement', options: { layout: 'stack' }, context: { colorScheme: 'dark' } }, async (page) => {
      assert.deepEqual(await frameLook(page), { scheme: 'light', page: 'rgba(0, 0, 0, 0)', input: 'rgb(255, 255, 255)' });
      // What the shopper sees in the middle of the form, between the fields: the page's white.
      const box = (await page.locator('#box').boundingBox())!;
      const pixel = await page.screenshot({ clip: { x: box.x + box.width / 2, y: box.y + 84, width: 1, height: 1 } });
      assert.ok(pixel.length > 0);
      const bright = await page.evaluate(async (png) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const c = new OffscreenCanvas(1, 1).getContext('2d')!;
        c.drawImage(image, 0, 0);
        const [r, g, b] = c.getImageData(0, 0, 1, 1).data;
        return (r! + g! + b!) / 3;
      }, pixel.toString('base64'));
      assert.ok(bright > 240, `the pixel between the fields is ${bright} bright`);
    });
  });

  it('a dark page under a light OS: dark frames on the page\'s own background; a page switching its theme is followed', () =>
    opened({ factory: 'cardElement', options: { layout: 'stack' }, css: `${DARK_PAGE}html.light{color-scheme:light;background:#fafafa;color:#111}`, context: { colorScheme: 'light' } }, async (page) => {
      assert.deepEqual(await frameLook(page), { scheme: 'dark', page: 'rgb(15, 17, 21)', input: 'rgb(31, 35, 40)' });
      await page.evaluate(() => document.documentElement.classList.add('light'));
      await frameOf(page, 'card-form').waitForFunction(() => document.body.firstElementChild!.getAttribute('scheme') === 'light');
      assert.equal((await frameLook(page)).page, 'rgb(250, 250, 250)');
    }));

  it('the merchant can still force a theme: light on a dark page, dark on a light page under a light OS', async () => {
    await opened({ factory: 'cardElement', options: { layout: 'stack', theme: 'light' }, css: DARK_PAGE }, async (page) => {
      const seen = await frameLook(page);
      assert.equal(seen.scheme, 'light');
      assert.equal(seen.input, 'rgb(255, 255, 255)');
      // Not the page's dark background under light text: the palette's own.
      assert.notEqual(seen.page, 'rgb(15, 17, 21)');
    });
    await opened({ factory: 'cardElement', options: { layout: 'stack', theme: 'dark' }, context: { colorScheme: 'light' } }, async (page) => {
      assert.equal((await frameLook(page)).scheme, 'dark');
    });
  });
});

describe('languages', () => {
  // A regional catalogue (fr-CA) holds what differs from its language's (fr), which comes with it.
  const assetsOf = (page: Page, app: string) =>
    frameOf(page, app).evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.startsWith('/frames/assets/')),
    );
  for (const [language, expected, label] of [['en', [], 'Card number'], ['de', ['de'], 'Kartennummer'], ['fr-CA', ['fr-CA', 'fr'], 'Numéro de carte'], ['pt-PT', ['pt'], 'Número do cartão']] as const) {
    it(`${language}: the card form's page comes in that language (no catalogue fetched); a Flow frame fetches ${expected.length ? expected.join(', ') : 'no'} catalogue`, async () => {
      const card = await look.open({ factory: 'cardElement', options: { layout: 'row', language } });
      try {
        assert.deepEqual(await assetsOf(card.page, 'card-form'), []);
        assert.equal(await card.page.frameLocator('#box iframe').locator('label[for=cpe-number]').textContent(), label);
      } finally {
        await card.context.close();
      }
      const flow = await look.open({ factory: 'paymentFlow', options: { layout: 'stack', language } });
      try {
        assert.deepEqual(
          // Sorted: the two of a regional catalogue may be fetched side by side.
          (await assetsOf(flow.page, 'flow')).map((p) => p.replace(/^\/frames\/assets\/(.+)-[\w-]{8}\.js$/, '$1')).sort(),
          [...expected].sort(),
        );
      } finally {
        await flow.context.close();
      }
    });
  }
});

describe('the Flow after success and failure', () => {
  it('success: the Pay button is gone and the element is as tall as what it shows', () =>
    opened({ factory: 'paymentFlow', options: { layout: 'stack' } }, async (page) => {
      await pay(page, '4242424242424242');
      await card(page).locator('.status.success').waitFor();
      await painted(page);
      const shown = await frameOf(page, 'flow').evaluate(() => {
        const el = document.querySelector('cpe-flow-form')!;
        const button = el.shadowRoot!.querySelector('button.action')!;
        return { button: getComputedStyle(button).display, content: Math.ceil(el.getBoundingClientRect().height), status: el.shadowRoot!.querySelector('[role=status]')!.textContent };
      });
      assert.equal(shown.button, 'none');
      assert.equal(shown.status, 'Payment complete.');
      const sizes = await page.evaluate(() => {
        const el = document.querySelector('cpe-payment-flow')!;
        return { element: el.getBoundingClientRect().height, iframe: el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height, minHeight: (el as HTMLElement).style.minHeight };
      });
      assert.deepEqual(sizes, { element: shown.content, iframe: shown.content, minHeight: '' });
      assert.ok(shown.content < 80, `the success panel alone: ${shown.content} px`);
    }));

  for (const [number, reason] of [
    ['4000000000000002', 'Your card was declined. Use another card.'],
    ['4000000000000127', 'This card cannot be used. Use another card.'],
  ] as const) {
    it(`failure (${number}): the reason said once, then Try again; no Pay button`, () =>
      opened({ factory: 'paymentFlow', options: { layout: 'row' }, width: 700 }, async (page) => {
        await pay(page, number);
        await card(page).locator('.status.failure').waitFor();
        assert.equal(await card(page).locator('[role=status]').textContent(), reason);
        assert.equal(await card(page).locator('button.action').isVisible(), false);
        assert.deepEqual(await card(page).locator('button:visible').allTextContents(), ['Try again']);
      }));
  }

  it('German: the reason in German, the button too', () =>
    opened({ factory: 'paymentFlow', options: { layout: 'stack', language: 'de' } }, async (page) => {
      await pay(page, '4000000000009995');
      await card(page).locator('.status.failure').waitFor();
      assert.equal(await card(page).locator('[role=status]').textContent(), 'Ihre Karte wurde mangels Deckung abgelehnt. Verwenden Sie eine andere Karte.');
      assert.deepEqual(await card(page).locator('button:visible').allTextContents(), ['Erneut versuchen']);
    }));
});

describe('the 3-D Secure challenge and the wallet sheet follow the element', () => {
  it('German on a dark page: the dialog and the challenge page in German and dark; no ring on the title', () =>
    opened({ factory: 'paymentFlow', options: { layout: 'stack', language: 'de' }, css: DARK_PAGE }, async (page) => {
      await pay(page, '4000000000003220');
      const challenge = page.frameLocator('dialog iframe');
      await challenge.locator('button[value=complete]').waitFor();
      const dialog = await page.evaluate(() => {
        const d = document.querySelector('cpe-payment-flow')!.shadowRoot!.querySelector('dialog')!;
        return { className: d.className, lang: d.lang, title: d.querySelector('h2')!.textContent, close: d.querySelector('button')!.getAttribute('aria-label'), focused: d.matches(':focus'), outline: getComputedStyle(d).outlineStyle, background: getComputedStyle(d).backgroundColor };
      });
      assert.deepEqual(dialog, { className: 'challenge dark', lang: 'de', title: 'Zahlung bestätigen', close: 'Abbrechen', focused: true, outline: 'none', background: 'rgb(22, 24, 28)' });
      const inner = page.frames().find((f) => f.url().includes('/frames/challenge'))!;
      const shown = await inner.evaluate(() => ({ lang: document.documentElement.lang, dark: document.documentElement.className, h1: document.querySelector('h1')!.textContent, amount: document.querySelector('.amount')!.textContent, buttons: [...document.querySelectorAll('button')].map((b) => b.textContent), background: getComputedStyle(document.body).backgroundColor }));
      assert.deepEqual(shown, { lang: 'de', dark: 'dark', h1: '3-D-Secure-Testabfrage', amount: '12,34\u00a0£', buttons: ['Bestätigen', 'Ablehnen'], background: 'rgb(22, 24, 28)' });
      await challenge.locator('button[value=complete]').click();
      await card(page).locator('.status.success').waitFor();
      assert.equal(await card(page).locator('[role=status]').textContent(), 'Zahlung abgeschlossen.');
    }));

  it('Arabic on a light page: the wallet sheet right to left and light; the dialog fits the sheet', () =>
    opened({ factory: 'walletA', options: { language: 'ar', total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy' } }, context: { colorScheme: 'dark' } }, async (page) => {
      await openSheet(page);
      await painted(page);
      const inner = page.frames().find((f) => f.url().includes('/frames/wallet-sheet/'))!;
      const shown = await inner.evaluate(() => {
        const el = document.querySelector('cpe-wallet-sheet')!;
        return { dir: document.documentElement.dir, lang: document.documentElement.lang, scheme: el.getAttribute('scheme'), approve: el.shadowRoot!.querySelector('.approve')!.textContent, content: Math.ceil(el.shadowRoot!.querySelector('main')!.getBoundingClientRect().height) };
      });
      assert.deepEqual({ ...shown, content: undefined }, { dir: 'rtl', lang: 'ar', scheme: 'light', approve: 'موافقة', content: undefined });
      const dialog = await page.evaluate(() => {
        const d = document.querySelector('cpe-wallet-a')!.shadowRoot!.querySelector('dialog')!;
        return { dir: d.dir, className: d.className, close: d.querySelector('button')!.getAttribute('aria-label'), iframe: d.querySelector('iframe')!.getBoundingClientRect().height };
      });
      assert.deepEqual({ ...dialog, iframe: undefined }, { dir: 'rtl', className: 'sheet light', close: 'إلغاء', iframe: undefined });
      // No empty area below the sheet: the frame is the content's height (its padding included).
      assert.ok(Math.abs(dialog.iframe - (shown.content + 36)) <= 2, `frame ${dialog.iframe} px for ${shown.content} px of content`);
    }));
});
