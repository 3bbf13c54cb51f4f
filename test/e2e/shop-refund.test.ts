import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seriousViolations } from './helpers/axe.ts';
import { CARDS } from './helpers/checkout.ts';
import { settled } from './helpers/settle.ts';
import { checkout, fillBasket, openShop, orderShown, payInShop, typeShopCard } from './helpers/shop.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { waitFor } from '../../testkit/wait.ts';

/**
 * The order page of a paid order shows what was refunded of what was captured, and the shop's
 * staff refund from it (the shop's backend calls POST /v1/refunds): part, then the rest; the
 * refund-failure card's refund shows pending, then failed on a later view.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('refunds on the order page', () => {
  it('a partial refund, then the rest: the amounts, each refund and the order status follow', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'card');
      await typeShopCard(page, CARDS.visa);
      await payInShop(page);
      const order = await orderShown(page);
      assert.equal(order.status, 'paid');
      const captured = Number(await page.locator('#refunded').getAttribute('data-captured'));
      assert.equal(await page.locator('#refunded').textContent(), `£0.00 of £${(captured / 100).toFixed(2)} refunded`);
      assert.equal(await page.locator('#refund-amount').inputValue(), (captured / 100).toFixed(2), 'the form offers what remains');
      await page.locator('#refund-amount').fill('5.00');
      await page.locator('#refund').click();
      await page.locator('#refund-notice', { hasText: 'Refund of £5.00: refunded.' }).waitFor();
      assert.equal(await page.locator('#refunded').getAttribute('data-refunded'), '500');
      assert.equal(await page.locator('#refund-amount').inputValue(), ((captured - 500) / 100).toFixed(2));
      await page.locator('#refund-amount').fill('999.99');
      await page.locator('#refund').click();
      await page.locator('#refund-notice.bad', { hasText: 'greater than what remains refundable' }).waitFor();
      await page.locator('#refund-amount').fill('');
      await page.locator('#refund').click();
      await page.locator('#refund-notice.good').waitFor();
      assert.equal(await page.locator('#refunded').getAttribute('data-refunded'), String(captured));
      assert.equal(await page.locator('#order-status').textContent(), 'Paid, then refunded in full.');
      assert.equal(await page.locator('#refund').count(), 0, 'nothing left: no Refund button');
      assert.deepEqual(await page.locator('.refunds tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))), ['succeeded', 'succeeded']);
      assert.equal(JSON.parse((await page.locator('#verify').textContent())!).auth.amount_refunded, captured);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('card 4000 0000 0000 5126: the refund shows pending, then failed, and the amount is refundable again', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'card');
      await typeShopCard(page, '4000 0000 0000 5126');
      await payInShop(page);
      await orderShown(page);
      await page.locator('#refund').click();
      await page.locator('#refund-notice', { hasText: ': pending.' }).waitFor();
      assert.equal(await page.locator('.refunds tr').getAttribute('data-status'), 'pending');
      // The service's settlement job answers a few seconds later (nothing announces it to the page):
      // each view of the order page reads the refunds again.
      const order = page.url().split('?')[0]!;
      await waitFor(
        'the refund to settle',
        async () => {
          await page.goto(order);
          return (await page.locator('.refunds tr').getAttribute('data-status')) !== 'pending';
        },
        { timeoutMs: 30_000, everyMs: 500 },
      );
      assert.equal(await page.locator('.refunds tr').getAttribute('data-status'), 'failed');
      assert.equal(await page.locator('#refunded').getAttribute('data-refunded'), '0');
      assert.equal(await page.locator('#refund').count(), 1, 'refundable again');
    } finally {
      await context.close();
    }
  });
});

describe('the refunds panel in every look', () => {
  for (const [name, options] of [
    ['light', {}],
    ['dark', { colorScheme: 'dark' as const }],
    ['de', {}, 'de'],
    ['ar', {}, 'ar'],
    ['phone-320', { viewport: { width: 320, height: 700 } }],
  ] as const) {
    const lang = (name === 'de' || name === 'ar') ? name : undefined;
    it(`${name}: no overflow, no serious axe violation, the panel fits beside or below the checks`, async () => {
      // axe is injected as a script: as the shop-look suite, the demo's CSP is bypassed for it.
      const { page, context } = await openShop(stack, { ...options, bypassCSP: true });
      try {
        await fillBasket(page);
        await checkout(page, stack, 'card');
        await typeShopCard(page, CARDS.visa);
        await payInShop(page);
        await orderShown(page);
        // Paid with the English labels (the card helper types by them); the order page in the look's language.
        if (lang) await page.goto(`${page.url().split('?')[0]}?lang=${lang}`);
        await page.locator('#refund-amount').fill('1.50');
        await page.locator('#refund').click();
        await page.locator('#refund-notice.good').waitFor();
        // The notice is in the new page's DOM before its stylesheet may have loaded: measure once it has.
        await settled(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8));
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px: ${wide.join(', ')}`);
        const panel = await page.locator('section[aria-labelledby="refunds-title"]').boundingBox();
        const button = await page.locator('#refund').boundingBox();
        assert.ok(panel && button && button.x >= panel.x && button.x + button.width <= panel.x + panel.width + 0.5, 'the Refund button sits inside its panel');
        assert.deepEqual(await seriousViolations(page), []);
        if (process.env.CPE_REFUND_SHOTS) await page.locator('section[aria-labelledby="refunds-title"]').screenshot({ path: `${process.env.CPE_REFUND_SHOTS}/refunds-${name}.png` });
      } finally {
        await context.close();
      }
    });
  }
});
