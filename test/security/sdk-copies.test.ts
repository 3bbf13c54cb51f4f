import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Two copies of the SDK on one page (a micro-frontend, a tag manager): the elements belong to the
 * first; the second says so with an SdkError naming both addresses, never "Illegal constructor".
 */
describe('two copies of the SDK on one page', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  let shop: MerchantSite;
  before(async () => {
    stack = await startStack();
    shop = await startMerchantSite(stack.service);
    shop.page('/two', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two</title></head><body></body></html>');
  });
  after(async () => {
    await shop?.close();
    await stack?.close();
  });

  it('the second copy raises an SdkError naming both URLs', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${shop.url}/two`);
      const { url: versioned } = await (await fetch(`${stack.serviceUrl}/sdk/integrity.json`)).json();
      const first = `${stack.serviceUrl}/sdk/cpe.js`;
      const outcome = await page.evaluate(
        `(async () => {
          await import(${JSON.stringify(first)});
          const second = await import(${JSON.stringify(versioned)});
          try {
            (await second.createElements({ pubKey: ${JSON.stringify(shop.credentials.publicKey)}, createServerIntent: async () => ({}) })).cardElement({});
            return 'no error';
          } catch (error) { return error.name + ' ' + error.code + ': ' + error.message; }
        })()`,
      );
      assert.match(String(outcome), /^SdkError sdk_loaded_twice: /);
      assert.ok(String(outcome).includes(first) && String(outcome).includes(versioned), String(outcome));
      assert.ok(!String(outcome).includes('Illegal constructor'));
    } finally {
      await context.close();
    }
  });
});
