import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { frameSecurityHeaders } from '../../server/http/frame-security.ts';
import { frameAncestorsOf } from '../../server/payments/frame-ancestors.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { answerChallenge, createIntent, readyToAuthorise, CARDS } from './payments-fixtures.ts';
import { parseCsp } from '../../testkit/stack.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

// The seeded merchant's allowed origins: the demo merchant, by name and by address.
const MERCHANT_ORIGINS = ['http://localhost:4243', 'http://127.0.0.1:4243'];
const ancestorsFor = (query: Record<string, string>) =>
  frameAncestorsOf(svc.services.merchants, svc.services.payments)({ query } as never);

describe('who may frame a hosted frame page', () => {
  test("the merchant named by the frame address (its public key), and only that merchant's origins", async () => {
    assert.deepEqual(await ancestorsFor({ pk: svc.credentials.publicKey }), MERCHANT_ORIGINS);
    const other = await svc.services.merchants.create({ origins: ['https://shop.example'] });
    assert.deepEqual(await ancestorsFor({ pk: other.publicKey }), ['https://shop.example']);
  });

  test('an unknown key, a licence key or no key: nobody', async () => {
    assert.deepEqual(await ancestorsFor({ pk: 'pk_test_unknown' }), []);
    assert.deepEqual(await ancestorsFor({ pk: svc.credentials.licenceKey }), []);
    assert.deepEqual(await ancestorsFor({}), []);
  });

  test("with an opaque key: only when it is an intent of that merchant", async () => {
    const opaque = (await createIntent(svc)).opaque_key;
    assert.deepEqual(await ancestorsFor({ pk: svc.credentials.publicKey, ok: opaque }), MERCHANT_ORIGINS);
    assert.deepEqual(await ancestorsFor({ pk: svc.credentials.publicKey, ok: 'opq_unknown' }), []);
    const other = await svc.services.merchants.create({ origins: ['https://shop.example'] });
    assert.deepEqual(await ancestorsFor({ pk: other.publicKey, ok: opaque }), [], "another merchant's key with this intent's opaque key");
  });
});

describe('one module builds every frame page\'s security headers', () => {
  test('static frames: only their own files, framed by the given origins, no Origin: null on their own POSTs', () => {
    const headers = frameSecurityHeaders({ ancestors: ['http://localhost:4243', 'javascript:alert(1)', 'https://a.example/path'] });
    const csp = parseCsp(headers['Content-Security-Policy']);
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.deepEqual(csp.get('frame-ancestors'), ['http://localhost:4243', 'https://a.example']);
    assert.equal(headers['Referrer-Policy'], 'same-origin');
    assert.deepEqual(parseCsp(frameSecurityHeaders({ ancestors: [] })['Content-Security-Policy']).get('frame-ancestors'), ["'none'"]);
    // A page with nothing inline to allow and no files of its own runs no script at all.
    assert.deepEqual(parseCsp(frameSecurityHeaders({ ancestors: [], inlineOnly: true })['Content-Security-Policy']).get('script-src'), ["'none'"]);
  });

  test('the challenge page gets the same policy with its one script and style by hash, from the same module', async () => {
    const { confirm } = await readyToAuthorise(svc, CARDS.challenge);
    const url: string = confirm.challenge.url;
    const page = await fetch(url);
    const csp = parseCsp(page.headers.get('content-security-policy'));
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('script-src')?.map((source) => source.replace(/^'sha256-.+'$/, 'hash')), ['hash']);
    assert.deepEqual(csp.get('style-src')?.map((source) => source.replace(/^'sha256-.+'$/, 'hash')), ['hash']);
    assert.deepEqual(csp.get('frame-ancestors'), ["'self'", ...MERCHANT_ORIGINS]);
    assert.equal(page.headers.get('referrer-policy'), 'same-origin');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    await answerChallenge(svc, url, 'complete');
  });
});

describe("the browser session's first request", () => {
  test('moves a new intent from open to requires_payment_method, durably, even when it is a GET', async () => {
    const s = await createIntent(svc);
    const read = async () => (await svc.api('GET', `/v1/payment_intents/${s.paymentIntentId}`, { token: svc.credentials.licenceKey })).body.status;
    assert.equal(await read(), 'open');
    assert.equal((await svc.api('GET', '/intent', { headers: s.headers })).body.status, 'requires_payment_method');
    assert.equal(await read(), 'requires_payment_method');
    // A later request leaves it where it is.
    assert.equal((await svc.api('GET', '/intent', { headers: s.headers })).body.status, 'requires_payment_method');
  });
});
