import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { createIntent } from '../server/payments-fixtures.ts';
import { flowPage, payWithFlow, startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { rawRequest } from './helpers/raw-request.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Finding 6 of the review: with the SDK loaded from `http://localhost:PORT` while CPE_PUBLIC_URL is
 * `http://127.0.0.1:PORT` (or the reverse), the frames loaded and said ready, then tokenise failed
 * with a misleading "Pages of origin … may not call this route". Now the SDK and the frames on any
 * other host name are redirected to the public URL, and every origin refusal says what was seen,
 * what was expected and the exact fix.
 */
describe('another host name of the service: 308 to the public URL', () => {
  let svc: TestService;
  let other: string;
  before(async () => {
    svc = await startTestService();
    other = svc.url.replace('127.0.0.1', 'localhost');
  });
  after(() => svc.close());

  const asHost = (path: string, host: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
    rawRequest(`${svc.url}${path}`, { ...options, headers: { Host: host, ...options.headers } });

  test('GET and HEAD of /sdk/ and /frames/ keep path and query, are never cached, and carry what a module script and a cross-origin-isolated page need', async () => {
    const host = new URL(other).host;
    for (const [method, path] of [['GET', '/sdk/cpe.js?v=1'], ['HEAD', '/sdk/cpe.js'], ['GET', '/frames/card-form/?pk=pk_test_x&lang=en'], ['GET', '/frames/challenge?challenge=abc']]) {
      const r = await asHost(path, host, { method });
      assert.equal(r.status, 308, `${method} ${path}`);
      assert.equal(r.headers.location, `${svc.url}${path}`);
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.equal(r.headers['access-control-allow-origin'], '*');
      assert.equal(r.headers['cross-origin-resource-policy'], 'cross-origin');
    }
    assert.equal((await asHost('/sdk/cpe.js', new URL(svc.url).host)).status, 200, 'the public host is served');
    assert.equal((await asHost('/v1/openapi.json', host)).status, 200, 'the API is not redirected');
    assert.equal((await asHost('/frames/tokenise', host, { method: 'POST' })).status, 403, 'a POST is not redirected');
  });

  test('behind a proxy (CPE_TRUST_PROXY 1) the host is X-Forwarded-Host; without it, nothing is redirected', async () => {
    const behind = await startTestService({ trustProxy: 1 });
    try {
      const get = (headers: Record<string, string>) => rawRequest(`${behind.url}/sdk/cpe.js`, { headers: { Host: 'cpe-internal:8080', ...headers } });
      assert.equal((await get({ 'X-Forwarded-Host': new URL(behind.url).host })).status, 200);
      const redirected = await get({ 'X-Forwarded-Host': 'shop-cdn.example' });
      assert.equal(redirected.status, 308);
      assert.equal(redirected.headers.location, `${behind.url}/sdk/cpe.js`);
      assert.equal((await get({})).status, 200, 'the upstream Host alone says nothing about the name the browser used');
    } finally {
      await behind.close();
    }
  });
});

describe('every origin refusal says what was seen, what was expected, and the fix', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(() => svc.close());

  test("a merchant page origin the merchant did not register: the merchant's origins and the npm run -s merchant command", async () => {
    const session = await createIntent(svc);
    const seen = 'https://shop.example';
    const r = await svc.api('GET', '/intent', { headers: { ...session.headers, Origin: seen } });
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'origin_not_allowed');
    const message: string = r.body.error.message;
    assert.ok(message.includes(`came from a page of origin ${seen}`), message);
    assert.ok(message.includes('http://localhost:4243, http://127.0.0.1:4243'), message);
    assert.ok(message.includes(`npm run -s merchant -- --origin ${seen}`), message);
  });

  test('without a valid key: no merchant has registered the origin', async () => {
    const r = await svc.api('POST', '/intent/confirm', { headers: { Origin: 'https://nobody.example' }, json: {} });
    assert.equal(r.status, 403);
    assert.match(r.body.error.message, /No merchant has registered that origin.*npm run -s merchant -- --origin https:\/\/nobody\.example/);
  });
});

/** A merchant page that loads the SDK from the other name of the service takes a payment all the same. */
for (const [publicHost, sdkHost] of [['127.0.0.1', 'localhost'], ['localhost', '127.0.0.1']] as const) {
  describe(`CPE_PUBLIC_URL on ${publicHost}, the SDK loaded from ${sdkHost}, in Chromium`, { timeout: scaled(600_000) }, () => {
    let stack: Stack;
    let shop: MerchantSite;
    before(async () => {
      stack = await startStack({ service: { publicUrl: `http://${publicHost}:0` } });
      // The shop is on the SDK's host name (another port: another origin than the service).
      shop = await startMerchantSite(stack.service, sdkHost);
    });
    after(async () => {
      await shop?.close();
      await stack?.close();
    });

    it('the SDK and the frames come from the public URL, and the payment succeeds', async () => {
      const sdkUrl = `${stack.serviceUrl.replace(publicHost, sdkHost)}/sdk/cpe.js`;
      assert.notEqual(new URL(sdkUrl).origin, new URL(stack.serviceUrl).origin);
      shop.page('/checkout', flowPage(shop.credentials.publicKey, `<script type="module" src="${sdkUrl}"></script>`));
      const { page, context, problems } = await stack.newPage();
      try {
        await page.goto(`${shop.url}/checkout`);
        await payWithFlow(page);
        const frameSrc = await page.locator('cpe-payment-flow iframe').first().evaluate((frame: HTMLIFrameElement) => frame.src);
        assert.equal(new URL(frameSrc).origin, new URL(stack.serviceUrl).origin, 'the frame is on the public origin');
        const verified = await shop.client.verify({ payment_intent_id: shop.intents.at(-1)!, unmask_fields: [] });
        assert.equal(verified.status, 'success');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  });
}
