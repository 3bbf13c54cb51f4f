import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CpeClient } from '../../client/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { rawRequest } from './helpers/raw-request.ts';
import { CARDS, assertError, backend, createIntent, fromFrame, futureYear, getIntent, tokenise, type Session } from '../server/payments-fixtures.ts';

/**
 * Finding 2 of the review: `/frames/tokenise` relied on CORS, and a request with no Origin passed, so
 * anyone holding a public key and a session token could tokenise from a script. Each test below is
 * the attack as a client without a browser (or a page that is not the service's) would make it.
 */
let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

const tokenCount = async () => (await svc.services.store.collection('card_tokens').all()).length;
const card = { number: CARDS.visa, exp_month: '12', exp_year: futureYear, cvc: '123', name: 'Ada Lovelace' };

/** A tokenise request as an attacker sends it: the session's credentials and whatever headers it likes. */
const attack = (session: Session, headers: Record<string, string>) =>
  svc.api('POST', '/frames/tokenise', { headers: { ...session.headers, ...headers }, json: { card } });

describe('POST /frames/tokenise answers the hosted frames only', () => {
  test('a script or curl (no Origin) is refused 403 frames_only, naming POST /v1/tokens; nothing is tokenised', async () => {
    const session = await createIntent(svc);
    const before = await tokenCount();
    const refused = await attack(session, {});
    assertError(refused, 403, null, 'invalid_request_error');
    assert.equal(refused.body.error.code, 'frames_only');
    assert.match(refused.body.error.message, /POST \/v1\/tokens/);
    assert.match(refused.body.error.message, /no Origin header/);
    assert.ok(refused.body.error.message.includes(svc.url), 'names the origin expected');
    assert.equal(await tokenCount(), before);
    // The refusal changed nothing: the intent can still be paid from the frames.
    assert.equal((await tokenise(svc, session)).status, 200);
  });

  test('another origin (the merchant page, any page) is refused, saying which origin was seen and which expected', async () => {
    const session = await createIntent(svc);
    for (const origin of ['http://localhost:4243', 'https://evil.example', 'null']) {
      const refused = await attack(session, { Origin: origin, 'Sec-Fetch-Site': 'cross-site' });
      assertError(refused, 403);
      assert.equal(refused.body.error.code, 'frames_only');
      assert.ok(refused.body.error.message.includes(origin), `names ${origin}: ${refused.body.error.message}`);
      assert.ok(refused.body.error.message.includes(svc.url));
      assert.match(refused.body.error.message, /POST \/v1\/tokens/);
    }
  });

  test("the service's own Origin with fetch metadata saying it is not same-origin is refused", async () => {
    const session = await createIntent(svc);
    for (const site of ['cross-site', 'same-site', 'none']) {
      const refused = await attack(session, { Origin: svc.url, 'Sec-Fetch-Site': site });
      assertError(refused, 403);
      assert.equal(refused.body.error.code, 'frames_only');
      assert.match(refused.body.error.message, new RegExp(`Sec-Fetch-Site: ${site}, expected same-origin`));
    }
  });

  test("the frames' own request passes: the service's Origin, and Sec-Fetch-Site same-origin (or none sent, as by a browser without fetch metadata)", async () => {
    const session = await createIntent(svc);
    assert.equal((await attack(session, fromFrame(svc))).status, 200);
    assert.equal((await attack(await createIntent(svc), { Origin: svc.url })).status, 200);
  });

  test('the service reached under another host name: the refusal says to set CPE_PUBLIC_URL', async () => {
    const session = await createIntent(svc);
    const other = svc.url.replace('127.0.0.1', 'localhost');
    const response = await rawRequest(`${svc.url}/frames/tokenise`, {
      method: 'POST',
      headers: { ...session.headers, Host: new URL(other).host, Origin: other, 'Sec-Fetch-Site': 'same-origin' },
      json: { card },
    });
    assert.equal(response.status, 403);
    const { error } = response.body;
    assert.equal(error.code, 'frames_only');
    assert.ok(error.message.includes(`this service under another name than its public URL ${svc.url}`), error.message);
    assert.ok(error.message.includes(`CPE_PUBLIC_URL=${other}`), error.message);
  });
});

describe('POST /v1/tokens: the server-side route (licence key, test mode)', () => {
  const client = () => new CpeClient({ licenceKey: svc.credentials.licenceKey, baseUrl: svc.url });

  test('the README walk-through with curl-like form bodies: create, token, attach, confirm, authorise, verify', async () => {
    const { licenceKey, merchantId } = svc.credentials;
    const created = await svc.api('POST', '/v1/payment_intents', { token: licenceKey, form: { merchantid: String(merchantId), amount: '1234', currency: 'GBP', identifier: 'order-1', 'billTo[email]': 'ada@example.com' } });
    const id = created.body.paymentIntentId;
    const token = await svc.api('POST', '/v1/tokens', {
      token: licenceKey,
      form: { 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2030', 'card[cvc]': '123', 'card[name]': 'Ada Lovelace' },
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.deepEqual(Object.keys(token.body.data).sort(), ['cp_card_token', 'expires_at', 'expiry_month', 'expiry_year', 'last4', 'scheme']);
    assert.match(token.body.data.cp_card_token, /^tok_/);
    for (const [op, form] of [['attach', { payment_intent_id: id, token: token.body.data.cp_card_token }], ['confirm', { payment_intent_id: id }], ['authorise', { payment_intent_id: id }]] as const)
      assert.equal((await svc.api('POST', `/v1/payment_intents/${op}`, { token: licenceKey, form })).status, 200, op);
    const verified = await svc.api('POST', '/v1/payment_intents/verify', { token: licenceKey, form: { payment_intent_id: id, 'unmask_fields[0]': 'email' } });
    assert.equal(verified.body.status, 'success');
    assert.equal(verified.body.auth.email, 'ada@example.com');
  });

  test('the same validation and answer as tokenise (JSON too), through CpeClient.createToken', async () => {
    const made = await client().createToken({ card: { ...card, number: CARDS.amex, cvc: '1234' } });
    assert.equal(made.data.scheme, 'amex');
    assert.equal(made.data.last4, '0005');
    assertError(await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, json: { card: { ...card, number: '4242424242424241' } } }), 400, 'card[number]', 'card_error');
    assertError(await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, json: { card: { ...card, cvc: undefined } } }), 400, 'card[cvc]');
    assertError(await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, json: { card, payment_intent_id: 'pi_x' } }), 400, 'payment_intent_id');
  });

  test('a public key, a session or nothing is 401: the route is for the licence key only', async () => {
    const session = await createIntent(svc);
    assertError(await svc.api('POST', '/v1/tokens', { json: { card } }), 401);
    assertError(await svc.api('POST', '/v1/tokens', { token: svc.credentials.publicKey, json: { card } }), 401);
    assertError(await svc.api('POST', '/v1/tokens', { headers: { ...session.headers, ...fromFrame(svc) }, json: { card } }), 401);
  });

  test("its token attaches to any one of the merchant's intents, once; another merchant's intent is 404", async () => {
    const { data } = await client().createToken({ card });
    const [a, b] = [await createIntent(svc), await createIntent(svc)];
    const attached = await backend(svc, 'attach', { payment_intent_id: b.paymentIntentId, token: data.cp_card_token });
    assert.equal(attached.body.status, 'requires_customer_confirmation');
    // Spent: neither another intent nor the same one takes it again.
    const again = await backend(svc, 'attach', { payment_intent_id: a.paymentIntentId, token: data.cp_card_token });
    assertError(again, 400, 'token');
    assert.equal(again.body.error.code, 'token_already_used');
    assert.equal((await getIntent(svc, a.paymentIntentId)).status, 'open', 'the refused attach changed nothing');
    assert.equal((await svc.api('POST', '/intent/attach', { headers: b.headers, json: { token: data.cp_card_token } })).body.error.code, 'token_already_used');

    // Another merchant can neither use the token on its own intent nor reach this merchant's intents.
    const other = await svc.services.merchants.create({ origins: ['https://other.example'] });
    const otherIntent = await svc.api('POST', '/v1/payment_intents', { token: other.licenceKey, json: { merchantid: other.merchantId, amount: 500, currency: 'GBP', identifier: 'o-1' } });
    const fresh = (await client().createToken({ card })).data.cp_card_token;
    assertError(await svc.api('POST', '/v1/payment_intents/attach', { token: other.licenceKey, json: { payment_intent_id: otherIntent.body.paymentIntentId, token: fresh } }), 404, 'token');
    assertError(await svc.api('POST', '/v1/payment_intents/attach', { token: other.licenceKey, json: { payment_intent_id: a.paymentIntentId, token: fresh } }), 404, 'payment_intent_id');
    // Still unspent after those refusals: its own merchant's intent takes it.
    assert.equal((await backend(svc, 'attach', { payment_intent_id: a.paymentIntentId, token: fresh })).body.status, 'requires_customer_confirmation');
  });

  test('a token tokenised in a frame stays bound to its own intent', async () => {
    const [a, b] = [await createIntent(svc), await createIntent(svc)];
    const token = (await tokenise(svc, a)).body.data.cp_card_token;
    assertError(await backend(svc, 'attach', { payment_intent_id: b.paymentIntentId, token }), 404, 'token');
  });
});
