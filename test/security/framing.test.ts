import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * What held up in the review, kept: the card frame's `frame-ancestors` names the merchant's registered
 * origins only, so an unregistered page cannot frame it, directly or with the merchant's own page
 * nested inside it (every ancestor must be allowed), and the card form never renders there.
 */
describe('frame-ancestors refuses unregistered and nested origins', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  let shop: MerchantSite;
  let stranger: MerchantSite;
  before(async () => {
    stack = await startStack();
    shop = await startMerchantSite(stack.service);
    shop.page(
      '/card',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
      <script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>
      <cpe-elements pub-key="${shop.credentials.publicKey}" intent-url="/api/payment-intents"><cpe-card layout="stack"></cpe-card></cpe-elements></body></html>`,
    );
    // Another origin (a test merchant of its own, not the shop's): it frames the card frame, then the shop's page.
    stranger = await startMerchantSite(stack.service, '127.0.0.1');
    stranger.page('/direct', `<!doctype html><title>Direct</title><iframe src="${stack.serviceUrl}/frames/card-form/?pk=${shop.credentials.publicKey}&lang=en#00000000-0000-4000-8000-000000000000"></iframe>`);
    stranger.page('/nested', `<!doctype html><title>Nested</title><iframe style="width:600px;height:500px" src="${shop.url}/card"></iframe>`);
  });
  after(async () => {
    await stranger?.close();
    await shop?.close();
    await stack?.close();
  });

  /** Whether a frame of the card form rendered its inputs anywhere in the page's tree. */
  const cardRendered = async (page: Page) => {
    for (const frame of page.frames())
      if (frame.url().includes('/frames/card-form/') && (await frame.locator('input').count().catch(() => 0)) > 0) return true;
    return false;
  };

  for (const [name, path] of [
    ['an unregistered page framing the card frame directly', '/direct'],
    ["an unregistered page with the merchant's own page nested inside it", '/nested'],
  ] as const)
    it(`${name}: refused (frame-ancestors), no card form renders`, async () => {
      const { page, context } = await stack.newPage();
      try {
        const refused = page.waitForEvent('console', { predicate: (message) => /frame-ancestors|Refused to frame/i.test(message.text()), timeout: scaled(20_000) });
        await page.goto(`${stranger.url}${path}`);
        // The browser's refusal is its answer for the one card frame of the page: nothing renders it later.
        await refused;
        assert.equal(await cardRendered(page), false);
      } finally {
        await context.close();
      }
    });

  it("the merchant's own page, not nested, renders the card form (the check above is not vacuous)", async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${shop.url}/card`);
      await page.evaluate(() => (document.querySelector('cpe-card') as HTMLElement & { awaitReady(): Promise<void> }).awaitReady());
      assert.equal(await cardRendered(page), true);
    } finally {
      await context.close();
    }
  });
});
