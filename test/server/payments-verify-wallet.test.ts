import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, answerChallenge, assertError, backend, createBody, createIntent, getIntent, tokenOf, fromFrame, type Session } from './payments-fixtures.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

const verifyIntent = (extra: Record<string, unknown> = {}) => createIntent(svc, { amount: 0, purpose: 'verify', ...extra });

/** attach → confirm (→ challenge) → authorise over the session routes, as the verify Flow does. */
async function runSession(s: Session, token: string, options: { storeCard?: boolean; challenge?: 'complete' | 'fail' } = {}) {
  const attach = await svc.api('POST', '/intent/attach', { headers: s.headers, json: { token, ...(options.storeCard ? { storeCard: true } : {}) } });
  assert.equal(attach.status, 200, JSON.stringify(attach.body));
  if (attach.body.status !== 'requires_customer_confirmation') return { attach: attach.body };
  const confirm = await svc.api('POST', '/intent/confirm', { headers: s.headers, json: {} });
  assert.equal(confirm.status, 200, JSON.stringify(confirm.body));
  if (confirm.body.challenge) {
    const answer = await answerChallenge(svc, confirm.body.challenge.url, options.challenge ?? 'complete');
    assert.ok(answer.status < 400);
    if (options.challenge === 'fail') return { attach: attach.body, confirm: confirm.body };
  }
  const authorise = await svc.api('POST', '/intent/authorise', { headers: s.headers, json: {} });
  assert.equal(authorise.status, 200, JSON.stringify(authorise.body));
  return { attach: attach.body, confirm: confirm.body, authorise: authorise.body };
}

const verify = (id: string) => backend(svc, 'verify', { payment_intent_id: id, unmask_fields: [] });

describe('card verification intents (purpose verify)', () => {
  test('amount 0 only with purpose verify; purpose verify only with amount 0', async () => {
    const create = (extra: Record<string, unknown>) => svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { ...createBody(svc), ...extra } });
    assertError(await create({ amount: 0 }), 400, 'amount', 'invalid_request_error');
    assertError(await create({ amount: 100, purpose: 'verify' }), 400, 'amount', 'invalid_request_error');
    assertError(await create({ amount: 0, purpose: 'refund' }), 400, 'purpose', 'invalid_request_error');
    const ok = await create({ amount: 0, purpose: 'verify' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const form = await svc.api('POST', '/v1/payment_intents', {
      token: svc.credentials.licenceKey,
      form: { merchantid: String(svc.credentials.merchantId), amount: '0', currency: 'GBP', identifier: 'verify-form', purpose: 'verify' },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const intent = await getIntent(svc, form.body.paymentIntentId);
    assert.equal(intent.purpose, 'verify');
    assert.equal(intent.amount, 0);
    assert.equal((await getIntent(svc, ok.body.paymentIntentId)).purpose, 'verify');
    // A payment intent says so.
    assert.equal((await getIntent(svc, (await createIntent(svc)).paymentIntentId)).purpose, 'payment');
  });

  test('attach → confirm → authorise: succeeded and authorised, amount 0, nothing captured, no capture possible; verify is success with auth.purpose verify', async () => {
    const s = await verifyIntent();
    const view = await svc.api('GET', '/intent', { headers: s.headers });
    assert.equal(view.body.purpose, 'verify');
    assert.equal(view.body.amount, 0);
    const { authorise } = await runSession(s, await tokenOf(svc, s, CARDS.visa));
    assert.equal(authorise!.status, 'succeeded');
    assert.equal(authorise!.authorised, true);
    assert.equal(authorise!.amount, 0);
    assert.equal(authorise!.captured, false);
    assert.match(authorise!.authorisation_code, /^[A-Z0-9]{6}$/);
    const intent = await getIntent(svc, s.paymentIntentId);
    assert.equal(intent.status, 'succeeded');
    assert.equal(intent.amount_authorised, 0);
    assert.equal(intent.amount_captured, 0);
    assertError(await backend(svc, 'capture', { payment_intent_id: s.paymentIntentId }), 409);
    const v = await verify(s.paymentIntentId);
    assert.equal(v.body.status, 'success');
    assert.equal(v.body.auth.purpose, 'verify');
    assert.equal(v.body.auth.amount, 0);
    assert.equal(v.body.auth.amount_captured, 0);
    assert.equal(v.body.auth.wallet, null);
    assert.equal(v.body.auth.last4, '4242');
    // A payment's verify says purpose payment.
    const p = await createIntent(svc);
    await runSession(p, await tokenOf(svc, p, CARDS.visa));
    assert.equal((await verify(p.paymentIntentId)).body.auth.purpose, 'payment');
  });

  test('autoCapture false does not leave a verification waiting for capture', async () => {
    const s = await verifyIntent({ autoCapture: false });
    const { authorise } = await runSession(s, await tokenOf(svc, s, CARDS.visa));
    assert.equal(authorise!.status, 'succeeded');
    assert.equal(authorise!.captured, false);
  });

  test('3-D Secure as usual: challenge completed → verified; failed → failed', async () => {
    const s = await verifyIntent();
    const { confirm, authorise } = await runSession(s, await tokenOf(svc, s, CARDS.challenge));
    assert.equal(confirm!.status, 'requires_customer_authentication');
    assert.equal(authorise!.status, 'succeeded');
    const v = await verify(s.paymentIntentId);
    assert.equal(v.body.status, 'success');
    assert.equal(v.body.auth.three_ds, 'challenge_completed');
    const f = await verifyIntent();
    await runSession(f, await tokenOf(svc, f, CARDS.challenge), { challenge: 'fail' });
    assert.equal((await getIntent(svc, f.paymentIntentId)).status, 'failed');
    assert.equal((await verify(f.paymentIntentId)).body.status, 'failed');
  });

  test('declined cards fail the verification; a retry on the same intent can verify another card', async () => {
    const s = await verifyIntent();
    const { authorise } = await runSession(s, await tokenOf(svc, s, CARDS.declined));
    assert.equal(authorise!.authorised, false);
    assert.equal(authorise!.status, 'failed');
    assert.equal((await verify(s.paymentIntentId)).body.status, 'failed');
    const retry = await runSession(s, await tokenOf(svc, s, CARDS.visa));
    assert.equal(retry.authorise!.status, 'succeeded');
    assert.equal((await verify(s.paymentIntentId)).body.status, 'success');
  });

  test('storeCard on a verification vaults the card for the account; recurringIntent does too', async () => {
    const s = await verifyIntent({ account_id: 'acct-verify-1' });
    const { attach, authorise } = await runSession(s, await tokenOf(svc, s, CARDS.mastercard), { storeCard: true });
    assert.match(attach.stored_card.id, /^card_/);
    assert.equal(attach.stored_card.account_id, 'acct-verify-1');
    assert.equal(authorise!.status, 'succeeded');
    // A later payment of that account attaches the vaulted card.
    const later = await createIntent(svc, { account_id: 'acct-verify-1' });
    const again = await backend(svc, 'attach', { payment_intent_id: later.paymentIntentId, token: attach.stored_card.id });
    assert.equal(again.body.status, 'requires_customer_confirmation');
    const r = await verifyIntent({ account_id: 'acct-verify-2', recurringIntent: { type: 'subscription', interval: 'month' } });
    const rec = await runSession(r, await tokenOf(svc, r, CARDS.visa));
    assert.match(rec.attach.stored_card.id, /^card_/);
    // Without account_id, storeCard is refused as for payments.
    const n = await verifyIntent();
    assertError(await svc.api('POST', '/intent/attach', { headers: n.headers, json: { token: await tokenOf(svc, n, CARDS.visa), storeCard: true } }), 400, 'storeCard');
  });
});

describe('wallet test sheet: POST /frames/wallet/approve', () => {
  const approve = (s: Session, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    svc.api('POST', '/frames/wallet/approve', { headers: { ...s.headers, ...fromFrame(svc), ...headers }, json: body });

  test('mints a single-use wallet token for the chosen test card; the attempt and verify show the wallet', async () => {
    const s = await createIntent(svc);
    const r = await approve(s, { card: 'visa', wallet: 'a' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.token, /^tok_/);
    assert.equal(r.body.scheme, 'visa');
    assert.equal(r.body.last4, '4242');
    assert.ok(r.body.origins.includes('http://localhost:4243'), JSON.stringify(r.body.origins));
    assert.ok(!JSON.stringify(r.body).includes('4242424242424242'));
    const { attach, authorise } = await runSession(s, r.body.token);
    assert.equal(attach.payment_method.wallet, 'a');
    assert.equal(authorise!.status, 'succeeded');
    const intent = await getIntent(svc, s.paymentIntentId);
    assert.equal(intent.attempts[0].payment_method.wallet, 'a');
    const v = await verify(s.paymentIntentId);
    assert.equal(v.body.status, 'success');
    assert.equal(v.body.auth.wallet, 'a');
    assert.equal(v.body.auth.amount, 1234);
    // Single-use, like every token.
    assertError(await svc.api('POST', '/intent/attach', { headers: s.headers, json: { token: r.body.token } }), 409);
  });

  test('the test cards behave as the card table says: declined, insufficient, challenge, attach refused', async () => {
    const declined = await createIntent(svc);
    const d = await runSession(declined, (await approve(declined, { card: 'declined', wallet: 'b' })).body.token);
    assert.equal(d.authorise!.authorised, false);
    assert.equal(d.authorise!.error.code, 'card_declined');
    const poor = await createIntent(svc);
    const p = await runSession(poor, (await approve(poor, { card: 'insufficient', wallet: 'b' })).body.token);
    assert.equal(p.authorise!.error.code, 'insufficient_funds');
    const challenged = await createIntent(svc);
    const c = await runSession(challenged, (await approve(challenged, { card: 'challenge', wallet: 'a' })).body.token);
    assert.equal(c.confirm!.status, 'requires_customer_authentication');
    assert.equal(c.authorise!.status, 'succeeded');
    const refused = await createIntent(svc);
    const a = await runSession(refused, (await approve(refused, { card: 'attach_fail', wallet: 'b' })).body.token);
    assert.equal(a.attach.status, 'requires_payment_method');
    assert.equal(a.attach.error.retriable, false);
    assert.equal(a.attach.payment_method.wallet, 'b');
  });

  test('a wallet token verifies a card on a verification intent', async () => {
    const s = await verifyIntent();
    const { authorise } = await runSession(s, (await approve(s, { card: 'visa', wallet: 'b' })).body.token);
    assert.equal(authorise!.status, 'succeeded');
    const v = await verify(s.paymentIntentId);
    assert.equal(v.body.auth.purpose, 'verify');
    assert.equal(v.body.auth.wallet, 'b');
  });

  test("session auth, validation, the service's own pages only (no CORS) and idempotency", async () => {
    const s = await createIntent(svc);
    assertError(await svc.api('POST', '/frames/wallet/approve', { headers: fromFrame(svc), json: { card: 'visa', wallet: 'a' } }), 401);
    // A script or curl (no Origin) is refused before anything else, as tokenise is.
    const script = await svc.api('POST', '/frames/wallet/approve', { headers: s.headers, json: { card: 'visa', wallet: 'a' } });
    assertError(script, 403);
    assert.equal(script.body.error.code, 'frames_only');
    assertError(await approve(s, { card: 'visa', wallet: 'a' }, { 'X-CPE-Session-Token': 'cpe_st_wrong' }), 401);
    assertError(await approve(s, { card: 'amex', wallet: 'a' }), 400, 'card');
    assertError(await approve(s, { card: 'visa', wallet: 'c' }), 400, 'wallet');
    assertError(await approve(s, { card: 'visa', wallet: 'a', number: '4242424242424242' }), 400, 'number');
    // Only the service's own pages (the sheet) may call it from a browser.
    assertError(await approve(s, { card: 'visa', wallet: 'a' }, { Origin: 'http://localhost:4243' }), 403);
    const own = await approve(s, { card: 'visa', wallet: 'a' }, { Origin: svc.url });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('access-control-allow-origin'), null);
    const preflight = await fetch(`${svc.url}/frames/wallet/approve`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:4243', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    const first = await approve(s, { card: 'visa', wallet: 'a' }, { 'X-Idempotency-Key': 'wallet-approve-1' });
    const repeat = await approve(s, { card: 'visa', wallet: 'a' }, { 'X-Idempotency-Key': 'wallet-approve-1' });
    assert.equal(repeat.body.token, first.body.token);
    assertError(await approve(s, { card: 'declined', wallet: 'a' }, { 'X-Idempotency-Key': 'wallet-approve-1' }), 409);
  });

  test('the API description includes the approve route and purpose verify', async () => {
    const { body } = await svc.api('GET', '/v1/openapi.json');
    assert.ok(body.paths['/frames/wallet/approve'].post);
    const create = body.paths['/v1/payment_intents'].post.requestBody.content['application/json'].schema;
    assert.ok(JSON.stringify(create).includes('verify'));
    assert.ok(body.components.schemas.AuthDetails.properties.purpose);
    assert.ok(body.components.schemas.AuthDetails.properties.wallet);
    assert.ok(body.components.schemas.PaymentMethod.properties.wallet);
  });
});
