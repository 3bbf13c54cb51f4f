import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { CARDS } from '../e2e/helpers/checkout.ts';
import { flowPage, payWithFlow, startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * A merchant page that turns on cross-origin isolation (for SharedArrayBuffer: COOP same-origin, COEP
 * require-corp) loads only what opts in: the SDK (CORS and CORP), the frames and the 3-D Secure
 * challenge page (COEP of their own, CORP cross-origin when framed). Stripe's frames have broken on
 * such pages; CPE's take a payment there, challenge included. The frame pages opt in as frames only:
 * the isolated page cannot pull their bytes into its own process with a no-cors fetch.
 */
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

describe('a cross-origin-isolated merchant page', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  let shop: MerchantSite;
  before(async () => {
    stack = await startStack();
    shop = await startMerchantSite(stack.service);
    shop.page('/checkout', flowPage(shop.credentials.publicKey, `<script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>`), ISOLATED);
  });
  after(async () => {
    await shop?.close();
    await stack?.close();
  });

  it('is isolated, and takes a card payment through the 3-D Secure challenge', async () => {
    const { page, context, problems } = await stack.newPage();
    try {
      await page.goto(`${shop.url}/checkout`);
      assert.equal(await page.evaluate(() => self.crossOriginIsolated), true, 'the page is cross-origin isolated (SharedArrayBuffer available)');
      await payWithFlow(page, CARDS.challenge);
      const verified = await shop.client.verify({ payment_intent_id: shop.intents.at(-1)!, unmask_fields: [] });
      assert.equal(verified.status, 'success');
      assert.equal(verified.auth?.three_ds, 'challenge_completed');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  /** A challenge page of this shop's merchant (an intent confirmed with the challenge card). */
  async function challengeUrl(): Promise<string> {
    const { client, credentials } = shop;
    const intent = await client.createPaymentIntent({ merchantid: credentials.merchantId, amount: 1234, currency: 'GBP', identifier: 'coep-challenge' });
    const { data } = await client.createToken({ card: { number: CARDS.challenge, exp_month: '12', exp_year: '2031', cvc: '123', name: 'Ada Lovelace' } });
    await client.attach({ payment_intent_id: intent.paymentIntentId, token: data.cp_card_token });
    return (await client.confirm({ payment_intent_id: intent.paymentIntentId })).challenge!.url;
  }

  it("cannot read a frame page's or the challenge page's bytes into its own process: a no-cors fetch of them is blocked", async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${shop.url}/checkout`);
      const frameUrl = `${stack.serviceUrl}/frames/card-form/?pk=${shop.credentials.publicKey}`;
      for (const url of [frameUrl, await challengeUrl()]) {
        const outcome = await page.evaluate((u) => fetch(u, { mode: 'no-cors' }).then(() => 'loaded', (error: Error) => `blocked: ${error.name}`), url);
        assert.equal(outcome, 'blocked: TypeError', url);
      }
      // The same page framed is what CORP cross-origin allows (the test above).
      const framed = await fetch(frameUrl, { headers: { 'Sec-Fetch-Dest': 'iframe' } });
      assert.equal(framed.headers.get('cross-origin-resource-policy'), 'cross-origin');
      assert.equal(framed.headers.get('cross-origin-embedder-policy'), 'require-corp');
    } finally {
      await context.close();
    }
  });
});
