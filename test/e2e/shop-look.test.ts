import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { CARDS } from './helpers/checkout.ts';
import { cardFrame, checkout, fillBasket, METHODS, openShop, orderShown, typeShopCard } from './helpers/shop.ts';
import { dialogClosed, pressEscape } from './helpers/frame-click.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { painted, settled } from './helpers/settle.ts';

/**
 * Every demo page, light and dark, in a left-to-right and a right-to-left language: axe-core finds no
 * serious or critical violation. With CPE_SCREENSHOTS=1, the same run takes the README's pictures
 * into docs/screenshots/ (ids and references that change from run to run are replaced by fixed ones
 * first, so an unchanged page gives an unchanged file).
 */
const SHOTS = process.env.CPE_SCREENSHOTS === '1' ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots') : undefined;
const COMPONENT_PAGES = ['card', 'fields', 'flow', 'verify', 'wallets', 'checkout-context', 'html'];

let stack: Stack;
before(async () => {
  stack = await startStack();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await stack?.close();
});

/** Run-to-run values (order references, ids, times, authorisation codes) replaced by fixed ones. */
async function steady(page: Page): Promise<void> {
  await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      node.textContent = node
        .textContent!.replace(/ORD-\d+-[0-9A-F]{6}/g, 'ORD-1001-7C2A9F')
        .replace(/\b(pi|att|tds|tok|pm|ch|evt)_[A-Za-z0-9]+/g, '$1_0123456789abcdef')
        .replace(/("(?:created|updated|authorised_at|captured_at|expires_at|[a-z_]*_at)": )\d+/g, '$11767225600')
        .replace(/("authorisation_code": )"[^"]+"/g, '$1"A1B2C3"')
        .replace(/("three_ds_transaction_id": )"[^"]+"/g, '$1"3ds_0123456789abcdef"');
    }
  });
}

/**
 * How many pixels differ between two PNGs (decoded by the browser) by more than a shade (24 of 255 in
 * a channel: a transition's last frame, antialiasing), or -1 when their sizes differ. A
 * string, not a function: functions inside an evaluated function would need tsx's `__name` helper.
 */
async function pixelsChanged(page: Page, before: Buffer, after: Buffer): Promise<number> {
  const blank = await page.context().newPage();
  try {
    return (await blank.evaluate(`(async () => {
      const load = async (png) => {
        const image = new Image();
        image.src = 'data:image/png;base64,' + png;
        await image.decode();
        const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [a, b] = [await load(${JSON.stringify(before.toString('base64'))}), await load(${JSON.stringify(after.toString('base64'))})];
      if (a.width !== b.width || a.height !== b.height) return -1;
      let changed = 0;
      for (let i = 0; i < a.data.length; i += 4)
        if (Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2])) > 24) changed++;
      return changed;
    })()`)) as number;
  } finally {
    await blank.close();
  }
}

/**
 * Takes a picture into docs/screenshots; an existing one is kept when fewer than 100 pixels changed
 * more than a shade (antialiasing and transitions vary from run to run), so git sees only real changes.
 */
async function shot(page: Page, name: string, target?: Locator): Promise<void> {
  if (!SHOTS) return;
  await steady(page);
  const options = { animations: 'disabled' as const, caret: 'hide' as const };
  const png = target ? await target.screenshot(options) : await page.screenshot({ ...options, fullPage: true });
  const path = join(SHOTS, `${name}.png`);
  if (existsSync(path)) {
    const changed = await pixelsChanged(page, readFileSync(path), png);
    if (changed >= 0 && changed < 100) return;
  }
  writeFileSync(path, png);
}

describe('axe-core on every demo page: no serious or critical violation', () => {
  for (const lang of ['en', 'ar']) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`the shop, its basket, checkout (every method), order and inbox pages, and the component pages: ${lang}, ${colorScheme}`, async () => {
        const { page, context } = await openShop(stack, { lang, colorScheme, bypassCSP: true });
        const found: string[] = [];
        const check = async (path: string) => {
          if (path) await page.goto(`${stack.demoUrl}${path}`);
          await settled(page);
          for (const violation of await seriousViolations(page)) found.push(`${path || '/'}: ${violation}`);
        };
        try {
          await check('');
          await fillBasket(page);
          await check('');
          await check('/basket');
          for (const method of METHODS) await check(`/checkout?method=${method}`);
          // An order page (this one not paid: the failed check shows).
          const id = await page.evaluate(() => fetch('/shop/intent?method=card', { method: 'POST' }).then((r) => r.json()).then((s) => s.paymentIntentId as string));
          await page.goto(`${stack.demoUrl}/order?payment_intent=${id}`);
          await page.waitForURL(/\/orders\//);
          await check('');
          await check('/inbox');
          await page.locator('#contact-username').fill(`look_${lang}_${colorScheme}`);
          await page.locator('#contact-phone').fill('+44 20 7946 0958');
          await page.locator('#contact-phone').press('Enter');
          await page.locator('#message-text').fill('Hello');
          await page.locator('#message-text').press('Tab');
          await page.locator('.compose button').click();
          await check('');
          for (const name of COMPONENT_PAGES) await check(`/components/${name}?language=${lang}`);
          assert.deepEqual(found, []);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('the README\'s pictures', { skip: !SHOTS && 'set CPE_SCREENSHOTS=1 to take them' }, () => {
  it('the shop, the basket, each component at the checkout, the order page and the inbox', async () => {
    const { page, context } = await openShop(stack);
    try {
      await settled(page);
      await shot(page, 'shop');
      await fillBasket(page);
      await page.goto(`${stack.demoUrl}/basket`);
      await shot(page, 'basket');
      const panel = page.locator('section.panel').nth(1);
      for (const method of METHODS) {
        await checkout(page, stack, method);
        await settled(page);
        await shot(page, `checkout-${method}`, panel);
      }
      // A card typed, the Pay button enabled: then the 3-D Secure challenge and the order page.
      await checkout(page, stack, 'card');
      await typeShopCard(page, CARDS.challenge);
      await page.locator('#pay:not([disabled])').waitFor();
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await painted(page);
      await shot(page, 'checkout-card-complete', panel);
      await page.locator('#pay').click();
      const challenge = page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' });
      await challenge.waitFor();
      await painted(page);
      await shot(page, 'challenge');
      await challenge.click();
      await orderShown(page);
      await shot(page, 'order');
      // The wallet test sheet.
      await page.goto(`${stack.demoUrl}/`);
      await fillBasket(page);
      await checkout(page, stack, 'wallet-a');
      await page.frameLocator('#pay-element iframe').first().getByRole('button').click();
      await page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }).waitFor();
      await painted(page);
      await shot(page, 'wallet-sheet');
      await pressEscape(page, dialogClosed(page));
      // The inbox with a conversation.
      await page.goto(`${stack.demoUrl}/inbox`);
      await page.locator('#contact-username').fill('grace');
      await page.locator('#contact-phone').fill('+44 20 7946 0958');
      await page.locator('#contact-phone').press('Enter');
      for (const [text, from] of [['Your parcel left today.', 'user'], ['Thank you! The notebook is lovely.', 'contact']]) {
        await page.locator('#message-text').fill(text!);
        await page.locator('#message-sender').selectOption(from!);
        await page.locator('.compose button').click();
        await page.locator('.messages li', { hasText: text }).waitFor();
      }
      await page.getByRole('button', { name: 'Pin' }).click();
      await page.getByRole('button', { name: 'Unpin' }).waitFor();
      await shot(page, 'inbox');
    } finally {
      await context.close();
    }
  });

  it('<cpe-payment> at the checkout, and the pages phones showed too wide, at 320, 375 and 1280 px: light, dark and Arabic', async () => {
    const looks = { light: { lang: 'en' }, dark: { lang: 'en', colorScheme: 'dark' as const }, ar: { lang: 'ar' } };
    for (const [look, options] of Object.entries(looks))
      for (const width of [320, 375, 1280]) {
        const { page, context } = await openShop(stack, { ...options, viewport: { width, height: width < 800 ? 760 : 900 } });
        try {
          await fillBasket(page);
          await checkout(page, stack, 'payment');
          await settled(page);
          // The element's frame painted its form (by the input's id: its label is in the page's language).
          await cardFrame(page).locator('#cpe-number').waitFor();
          await shot(page, `payment-${width}-${look}`);
          if (width !== 320) continue;
          await page.goto(`${stack.demoUrl}/basket`);
          await shot(page, `basket-320-${look}`);
        } finally {
          await context.close();
        }
      }
  });

  for (const [name, options] of [
    ['dark', { colorScheme: 'dark' as const }],
    ['de', { lang: 'de' }],
    ['ar-dark', { lang: 'ar', colorScheme: 'dark' as const }],
    ['phone', { viewport: { width: 375, height: 812 } }],
  ] as const) {
    it(`the checkout: ${name}`, async () => {
      const { page, context } = await openShop(stack, options);
      try {
        await fillBasket(page);
        await checkout(page, stack, name === 'phone' ? 'payment' : 'flow');
        await settled(page);
        if (name !== 'phone') {
          // By the inputs' ids: their labels are in the page's language.
          const frame = cardFrame(page);
          await frame.locator('#cpe-number').pressSequentially('4242424242424242');
          await frame.locator('#cpe-expiry').pressSequentially('1230');
          await frame.locator('#cpe-cvc').pressSequentially('123');
          await frame.locator('#cpe-name').fill('Ada Lovelace');
        }
        await cardFrame(page).locator('body').click({ position: { x: 2, y: 2 } }).catch(() => {});
        await page.locator('h1').click();
        // The fields' transitions (valid, focus) end before the picture.
        await painted(page);
        await shot(page, `checkout-${name}`);
      } finally {
        await context.close();
      }
    });
  }
});
