// The payment attempt in Node, without a browser (`npm run test:unit`): one idempotency key from
// tokenise to authorise, the order attach → confirm → authorise, and what each step sends where.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { SdkError } from '../../components/errors.ts';
import { PaymentAttempt } from '../../components/internal/payment-attempt.ts';
import type { Backend } from '../../components/transport/transport.ts';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';

const SERVICE = 'https://service.test';
type Sent = { url: string; headers: Record<string, string>; body: Record<string, unknown> };
let sent: Sent[];
let answers: Record<string, unknown>;

beforeEach(() => {
  sent = [];
  answers = {};
  // The page the SDK runs in: relative endpoints resolve against it (Node has no location).
  Object.assign(globalThis, { location: { href: 'https://shop.test/checkout' } });
});

/** The controller's HTTP, injected: records what is sent and answers from `answers`. */
const fakeFetch = (async (url: string, init: RequestInit) => {
  sent.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) });
  return new Response(JSON.stringify(answers[url] ?? { error: { code: 'not_found', message: `${url}: no answer` } }), { status: url in answers ? 200 : 404 });
}) as typeof fetch;

/** An attempt on a controller with these merchant routes; `refusals` are its `cpe:error`s that resolved. */
function setup(middleware: Backend['middleware'] = {}) {
  const backend: Backend = { serviceOrigin: SERVICE, middleware, pubKey: 'pk_test_1', fetch: fakeFetch, current: { paymentIntentId: 'pi_1', sessionToken: 'cpe_st_secret1', opaqueKey: 'opq_1' }, session: async () => backend.current! };
  const refusals: unknown[] = [];
  return { attempt: new PaymentAttempt(() => backend, (detail) => refusals.push(detail)), refusals };
}

const noChallenge = async () => assert.fail('no challenge expected');
/** Answers as the service gives them (the SDK checks each against the protocol's schema). */
const attachAnswer = (status: string, error: object | null = null) => ({
  paymentIntentId: 'pi_1',
  status,
  attempt_id: 'att_1',
  three_ds_transaction_id: 't',
  payment_method: { scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2040 },
  stored_card: null,
  error,
});
const confirmAnswer = (status: string, challenge: object | null = null) => ({ paymentIntentId: 'pi_1', status, three_ds_transaction_id: 't', three_ds: challenge ? 'challenge_pending' : 'frictionless', challenge });
const ok = { attach: attachAnswer('requires_customer_confirmation'), confirm: confirmAnswer('requires_authorisation') };

test('through the service: one idempotency key for attach, confirm and authorise, with the session headers; a new attempt has a new key', async () => {
  const { attempt } = setup();
  answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: ok.confirm, '/api/authorise': { authorised: true } };
  attempt.start('tok_first');
  attempt.checkAttach('cardElement.attach', {}, 'no token');
  await attempt.attach({}, 'pi_1');
  attempt.checkConfirm('cardElement.confirm', {});
  await attempt.confirm({}, noChallenge);
  attempt.checkAuthorise('cardElement.authoriseViaBackend', { endpoint: '/api/authorise' });
  const answer = await attempt.authorise({ endpoint: '/api/authorise', payload: { order: 42 } });
  assert.equal(answer.authorised, true);
  const [attach, confirm, authorise] = sent;
  assert.deepEqual(attach!.body, { payment_intent_id: 'pi_1', token: 'tok_first' });
  assert.equal(attach!.headers[PUBLIC_KEY_HEADER], 'pk_test_1');
  assert.equal(attach!.headers[SESSION_TOKEN_HEADER], 'cpe_st_secret1');
  assert.deepEqual(confirm!.body, { payment_intent_id: 'pi_1' });
  // The merchant's backend gets the key, never the session token.
  assert.deepEqual(authorise!.body, { payment_intent_id: 'pi_1', order: 42 });
  assert.equal(authorise!.headers[SESSION_TOKEN_HEADER], undefined);
  const key = attach!.headers[IDEMPOTENCY_HEADER];
  assert.match(key!, /^[0-9a-f-]{36}$/);
  assert.equal(confirm!.headers[IDEMPOTENCY_HEADER], key);
  assert.equal(authorise!.headers[IDEMPOTENCY_HEADER], key);
  attempt.start('tok_second');
  await attempt.attach({}, 'pi_1');
  assert.notEqual(sent[3]!.headers[IDEMPOTENCY_HEADER], key);
});

test('through middleware routes: only the idempotency key goes, and confirm may override it', async () => {
  const { attempt } = setup({ attach: '/mw/attach', confirm: '/mw/confirm' });
  answers = { '/mw/attach': ok.attach, '/mw/confirm': ok.confirm };
  attempt.start('tok_x');
  await attempt.attach({ storeCard: true }, 'pi_1');
  await attempt.confirm({ idempotencyKey: 'my-key' }, noChallenge);
  assert.deepEqual(sent[0]!.headers, { [IDEMPOTENCY_HEADER]: sent[0]!.headers[IDEMPOTENCY_HEADER], 'Content-Type': 'application/json' });
  assert.deepEqual(sent[0]!.body, { payment_intent_id: 'pi_1', token: 'tok_x', storeCard: true });
  assert.equal(sent[1]!.headers[IDEMPOTENCY_HEADER], 'my-key');
});

test('the order rules: no attach without a token, no confirm before attach or after a refused one, no authorise before requires_authorisation', async () => {
  const { attempt, refusals } = setup();
  answers = { [`${SERVICE}/intent/attach`]: attachAnswer('requires_payment_method', { type: 'card_error', message: 'Declined for tok_abcdefgh1234', code: 'card_declined', retriable: false }) };
  assert.throws(() => attempt.checkAttach('walletB.attach', {}, 'no payment data yet'), (e: SdkError) => e.code === 'invalid_state' && e.message === 'walletB.attach: no payment data yet');
  assert.throws(() => attempt.checkConfirm('cardElement.confirm', {}), /^SdkError: cardElement\.confirm: call attach\(\) first$/);
  attempt.checkAttach('cardElement.attach', { token: 'tok_given' }, 'no token');
  const answer = await attempt.attach({ token: 'tok_given' }, 'pi_1');
  assert.equal(answer.status, 'requires_payment_method');
  // The refusal is heard, without the token the service's message named.
  assert.deepEqual(refusals, [{ message: 'Declined for [redacted]', code: 'card_declined', operation: 'attach' }]);
  assert.throws(() => attempt.checkConfirm('cardElement.confirm', {}), /requires_payment_method: tokenise and attach another card/);
  assert.throws(() => attempt.checkAuthorise('cardElement.authoriseViaBackend', { endpoint: '/api/authorise' }), /confirm\(\) did not return requires_authorisation/);
  // The token was spent: attaching again needs a new one.
  assert.throws(() => attempt.checkAttach('cardElement.attach', {}, 'no token'), /no token/);
});

test('authorise refuses the service as its endpoint, and verify without middleware.verifyAuth; autoAuthorise needs an endpoint', async () => {
  const { attempt } = setup();
  answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: ok.confirm };
  attempt.start('tok_x');
  await attempt.attach({}, 'pi_1');
  await attempt.confirm({}, noChallenge);
  const at = 'cardElement.authoriseViaBackend';
  assert.throws(() => attempt.checkAuthorise(at, { endpoint: `${SERVICE}/intent/authorise` }), (e: SdkError) => e.option === 'endpoint');
  assert.throws(() => attempt.checkAuthorise(at, { endpoint: '/api/authorise', verify: true }), (e: SdkError) => e.option === 'verify');
  // The Flows' own session route is the service's, on purpose.
  attempt.checkAuthorise(at, { endpoint: `${SERVICE}/intent/authorise` }, true);
  assert.throws(() => attempt.checkConfirm('cardElement.confirm', { autoAuthorise: true }), (e: SdkError) => e.option === 'authorise.endpoint');
  assert.equal(attempt.checkConfirm('cardElement.confirm', { autoAuthorise: true, authorise: { endpoint: '/api/authorise' } }), '/api/authorise');
});

test('a challenge: completed may authorise, failed may not, cancelled keeps the confirm status', async () => {
  for (const [outcome, status, authorisable] of [
    ['completed', 'requires_authorisation', true],
    ['failed', 'failed', false],
    [undefined, 'requires_customer_authentication', false],
  ] as const) {
    const { attempt } = setup();
    answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: confirmAnswer('requires_customer_authentication', { url: '/challenge', transaction_id: 't' }) };
    attempt.start('tok_x');
    await attempt.attach({}, 'pi_1');
    const answer = await attempt.confirm({}, async () => (attempt.challenged(outcome, 'pi_1'), outcome));
    assert.equal(answer.status, status);
    if (outcome) assert.equal(answer.three_ds, `challenge_${outcome}`);
    const check = () => attempt.checkAuthorise('x', { endpoint: '/api/authorise' });
    if (authorisable) check();
    else assert.throws(check, /did not return requires_authorisation/);
  }
});

test('autoHandle3DS: false leaves the challenge to the caller; a dead end is refused', async () => {
  const { attempt, refusals } = setup();
  answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: confirmAnswer('requires_customer_authentication', { url: '/c', transaction_id: 't' }) };
  attempt.start('tok_x');
  await attempt.attach({}, 'pi_1');
  assert.equal((await attempt.confirm({ autoHandle3DS: false }, noChallenge)).status, 'requires_customer_authentication');
  assert.deepEqual(refusals, []);
  answers[`${SERVICE}/intent/confirm`] = confirmAnswer('failed');
  await attempt.confirm({}, noChallenge);
  assert.deepEqual(refusals, [{ message: 'Cannot proceed to authorisation (failed).', code: 'confirm_failed', operation: 'confirm' }]);
});

test('authorise: a non-object payload goes as `payload`; verify posts to middleware.verifyAuth with the same key; direct uses the session headers', async () => {
  const { attempt, refusals } = setup({ verifyAuth: '/mw/verify' });
  answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: ok.confirm, '/api/authorise': { authorised: false }, '/mw/verify': { ok: true }, [`${SERVICE}/intent/authorise`]: { authorised: true } };
  attempt.start('tok_x');
  await attempt.attach({}, 'pi_1');
  await attempt.confirm({}, noChallenge);
  const answer = await attempt.authorise({ endpoint: '/api/authorise', payload: 'order-42', headers: { 'X-Shop': '1' }, verify: true });
  assert.deepEqual(sent[2]!.body, { payment_intent_id: 'pi_1', payload: 'order-42' });
  assert.equal(sent[2]!.headers['X-Shop'], '1');
  assert.deepEqual(answer.verify, { ok: true });
  assert.equal(sent[3]!.url, '/mw/verify');
  assert.equal(sent[3]!.headers[IDEMPOTENCY_HEADER], sent[0]!.headers[IDEMPOTENCY_HEADER]);
  assert.deepEqual(refusals, [{ message: 'The payment was not authorised.', code: 'not_authorised', operation: 'authorise' }]);
  await attempt.authorise({ endpoint: `${SERVICE}/intent/authorise` }, true);
  assert.equal(sent[4]!.headers[SESSION_TOKEN_HEADER], 'cpe_st_secret1');
});

test('an answer of another shape is refused as invalid_response, naming the route and the field, before anything goes on', async () => {
  const { attempt } = setup({ attach: '/mw/attach' });
  answers = { '/mw/attach': { ...attachAnswer('requires_customer_confirmation'), status: 'paid', payment_method: 'visa tok_abcdefgh1234' } };
  attempt.start('tok_x');
  await assert.rejects(
    () => attempt.attach({}, 'pi_1'),
    (e: SdkError) => e.code === 'invalid_response' && /^\/mw\/attach answered a body that is not an attach answer: field "status" must be one of open, /.test(e.message) && /field "payment_method"/.test(e.message) && !e.message.includes('tok_abcdefgh'),
  );
  const { attempt: direct } = setup();
  answers = { [`${SERVICE}/intent/attach`]: ok.attach, [`${SERVICE}/intent/confirm`]: ok.confirm, '/api/authorise': { authorised: 'yes' } };
  direct.start('tok_x');
  await direct.attach({}, 'pi_1');
  await direct.confirm({}, noChallenge);
  await assert.rejects(() => direct.authorise({ endpoint: '/api/authorise' }), (e: SdkError) => e.code === 'invalid_response' && /field "authorised" must be true or false/.test(e.message));
});
