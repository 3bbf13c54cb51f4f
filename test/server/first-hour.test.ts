import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CpeApiError, CpeClient, cpeNodeHandler } from '../../client/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, tokenOf } from './payments-fixtures.ts';

/**
 * Issue 24, the server half of an integrator's first hour: `cpe/server`'s errors say what to fix
 * (a missing licence key, an unreachable service naming its URL, an amount that is not minor units),
 * `merchantid` is optional on create (the licence key names the merchant; when given it must
 * match), and the key check the SDK makes before mounting answers any page (CORS) about that key and
 * that page's origin only.
 */
let svc: TestService;
let client: CpeClient;

/** A port that was just free: nothing listens there. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
before(async () => {
  svc = await startTestService();
  client = new CpeClient({ licenceKey: svc.credentials.licenceKey, baseUrl: svc.url });
});
after(() => svc.close());

describe('cpe/server says what to fix', () => {
  test('a missing licence key is named as missing (not "not the public key"), with where to find one', () => {
    assert.throws(() => new CpeClient({ licenceKey: undefined as unknown as string }), /licenceKey is missing: pass your merchant's licence key sk_test_… \(npm run -s credentials/);
    assert.throws(() => new CpeClient({ licenceKey: '' }), /licenceKey is missing/);
    assert.throws(() => new CpeClient({ licenceKey: svc.credentials.publicKey }), /is the public key \(pk_…\), which belongs in the browser/);
    assert.throws(() => new CpeClient({ licenceKey: 'secret' }), /is not a licence key \(it must start "sk_"\)/);
  });

  test('an unreachable service: a CpeApiError naming the URL, the request and CPE, after its retries', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const offline = new CpeClient({ licenceKey: 'sk_test_x', baseUrl, sleep: async () => {} });
    await assert.rejects(
      () => offline.createPaymentIntent({ amount: 1234, currency: 'GBP', identifier: 'order-1' }),
      (error: unknown) => {
        assert.ok(error instanceof CpeApiError, String(error));
        assert.equal(error.status, 0);
        assert.equal(error.type, 'api_connection_error');
        assert.equal(error.code, 'service_unreachable');
        assert.match(error.message, new RegExp(`^Could not reach the CPE service at ${baseUrl} \\(POST /v1/payment_intents: ECONNREFUSED\\) after 3 tries\\. Is it running \\(npm start\\)`));
        return true;
      },
    );
  });

  test("the merchant's middleware routes, with the service unreachable: the browser gets 502 service_unavailable, not the service's address", async () => {
    const offline = new CpeClient({ licenceKey: 'sk_test_x', baseUrl: `http://127.0.0.1:${await freePort()}`, sleep: async () => {} });
    const handler = cpeNodeHandler({ client: offline, prefix: '/api/cpe', allowIntent: () => true });
    const merchant = createServer((req, res) => void handler(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => merchant.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(merchant.address() as AddressInfo).port}/api/cpe/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-idempotency-key': 'k-1' },
        body: JSON.stringify({ payment_intent_id: 'pi_1' }),
      });
      const body = await response.json();
      assert.equal(response.status, 502);
      assert.deepEqual(body, { error: { type: 'api_error', code: 'service_unavailable', message: 'The payment service could not be reached.', param: null } });
    } finally {
      merchant.close();
    }
  });

  test('an amount written as a decimal string says it expects an integer of minor units', async () => {
    await assert.rejects(
      () => client.createPaymentIntent({ amount: '12.34' as unknown as number, currency: 'GBP', identifier: 'order-2' }),
      (error: unknown) =>
        error instanceof CpeApiError && error.code === 'parameter_invalid' && error.param === 'amount' && error.message === 'Invalid amount: expected an integer number of minor units (pence, cents): 1234 for 12.34.',
    );
  });

  test('a missing required field is parameter_missing', async () => {
    const answer = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { currency: 'GBP', identifier: 'order-3' } });
    assert.equal(answer.status, 400);
    assert.deepEqual([answer.body.error.code, answer.body.error.param], ['parameter_missing', 'amount']);
  });
});

describe('merchantid is optional on create', () => {
  test('left out, the licence key names the merchant', async () => {
    const created = await client.createPaymentIntent({ amount: 1234, currency: 'GBP', identifier: 'order-4' });
    const intent = await client.retrievePaymentIntent(created.paymentIntentId);
    assert.equal(intent.merchantid, svc.credentials.merchantId);
  });

  test("given, it must be the key's merchant: another is parameter_invalid naming both", async () => {
    const other = svc.credentials.merchantId + 1;
    await assert.rejects(
      () => client.createPaymentIntent({ merchantid: other, amount: 1234, currency: 'GBP', identifier: 'order-5' }),
      (error: unknown) =>
        error instanceof CpeApiError && error.code === 'parameter_invalid' && error.param === 'merchantid' && error.message.includes(`belongs to merchant ${svc.credentials.merchantId}, not ${other}`),
    );
    assert.equal((await client.createPaymentIntent({ merchantid: svc.credentials.merchantId, amount: 1234, currency: 'GBP', identifier: 'order-6' })).status, 'open');
  });
});

describe('GET /v1/public_keys/:key: the SDK asks before it mounts', () => {
  test("a known key: whether the asking page's origin is registered, readable by any origin, nothing else", async () => {
    const mine = await svc.services.merchants.create({ origins: ['https://shop.example'], name: 'Secret Shop Ltd' });
    const allowed = await svc.api('GET', `/v1/public_keys/${mine.publicKey}`, { headers: { origin: 'https://shop.example' } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(allowed.body, { object: 'public_key', livemode: false, origin: 'https://shop.example', origin_allowed: true });
    const stranger = await svc.api('GET', `/v1/public_keys/${mine.publicKey}`, { headers: { origin: 'https://evil.example' } });
    assert.deepEqual(stranger.body, { object: 'public_key', livemode: false, origin: 'https://evil.example', origin_allowed: false });
    // Nothing about the merchant: not its name, its id, its other origins or its licence key.
    const text = JSON.stringify(stranger.body);
    for (const secret of ['Secret Shop', 'shop.example', String(mine.merchantId), mine.licenceKey]) assert.ok(!text.includes(secret), secret);
  });

  test('an unknown key (or a licence key) is a 404 naming the parameter, with CORS so the SDK can read it', async () => {
    for (const key of ['pk_test_nothing', svc.credentials.licenceKey]) {
      const answer = await svc.api('GET', `/v1/public_keys/${key}`, { headers: { origin: 'https://shop.example' } });
      assert.equal(answer.status, 404);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual([answer.body.error.code, answer.body.error.param], ['resource_missing', 'key']);
    }
  });
});

describe('usernames of any script', () => {
  test('a contact named with accented or non-Latin letters is created and listed as written; a space or a symbol is still refused', async () => {
    const token = svc.credentials.accessToken;
    for (const username of ['zoë', 'José_M', 'Łukasz.K', 'محمد', '王芳', 'e\u0301mile']) {
      const created = await svc.api('POST', '/v1/contacts', { token, json: { username, phone_number: '+44 20 7946 0958' } });
      assert.equal(created.status, 200, `${username}: ${JSON.stringify(created.body)}`);
      assert.equal(created.body.username, username);
    }
    for (const username of ['two words', 'ada!', '']) {
      const refused = await svc.api('POST', '/v1/contacts', { token, json: { username, phone_number: '+44 20 7946 0958' } });
      assert.equal(refused.status, 400, username);
      assert.equal(refused.body.error.param, 'username');
    }
  });
});

describe('billing details at attach', () => {
  test("verify shows the page's billing details in place of the intent's billTo, redacted unless unmasked", async () => {
    const created = await client.createPaymentIntent({ amount: 1234, currency: 'GBP', identifier: 'order-7', billTo: { firstname: 'Ada', email: 'ada@example.test', postcode: 'N1 9GU' } });
    const session = { ...created, headers: { 'X-CPE-Public-Key': svc.credentials.publicKey, 'X-CPE-Session-Token': created.session_token } };
    const token = await tokenOf(svc, session, CARDS.visa);
    const id = created.paymentIntentId;
    await client.attach({ payment_intent_id: id, token, billing_details: { name: 'Grace Hopper', email: 'grace@example.test', address: { line1: '1 Navy Way', postcode: 'SW1A 1AA', country: 'gb' } } });
    await client.confirm({ payment_intent_id: id });
    await client.authorise({ payment_intent_id: id });
    const verified = await client.verify({ payment_intent_id: id, unmask_fields: ['name', 'email', 'address', 'postcode'] });
    assert.deepEqual([verified.auth?.name, verified.auth?.email, verified.auth?.address, verified.auth?.postcode], ['Grace Hopper', 'grace@example.test', '1 Navy Way', 'SW1A 1AA']);
    const redacted = await client.verify({ payment_intent_id: id, unmask_fields: [] });
    assert.equal(redacted.auth?.name, '[redacted]');
  });
});
