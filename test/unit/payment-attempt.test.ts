// The payment attempt without a browser: one idempotency key from tokenise to authorise, the
// order attach → confirm → authorise, and what each step sends (`npm run test:unit`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PaymentAttempt, type AttemptHost } from '../../components/internal/payment-attempt.ts';
import { SdkError } from '../../components/errors.ts';

type Call = { kind: string; url?: string; step?: string; body?: unknown; key?: string; headers?: Record<string, string> };

/** A host whose network answers from `answers` (by step or url) and records every call and refusal. */
function setup(answers: Record<string, unknown> = {}, extra: Partial<AttemptHost> = {}) {
  const calls: Call[] = [];
  const refusals: unknown[] = [];
  const host: AttemptHost = {
    apiName: 'cardElement',
    noToken: 'no token: call tokenise() first or pass {token}',
    serviceOrigin: 'https://service.test',
    pageUrl: 'https://shop.test/checkout',
    verifyRoute: undefined,
    commit: async () => ({ paymentIntentId: 'pi_session' }),
    step: async (step, body, key) => (calls.push({ kind: 'step', step, body, key }), answers[step]),
    post: async (url, body, headers) => (calls.push({ kind: 'post', url, body, headers }), answers[url]),
    sessionHeaders: async (key) => ({ 'X-Session': 'st', 'X-Idempotency-Key': key }),
    refused: (detail) => refusals.push(detail),
    ...extra,
  };
  return { attempt: new PaymentAttempt(host), calls, refusals };
}

const noChallenge = async () => assert.fail('no challenge expected');

test('one idempotency key for attach, confirm and authorise; a new attempt has a new one', async () => {
  const { attempt, calls } = setup({ attach: { status: 'requires_confirmation' }, confirm: { status: 'requires_authorisation' }, '/api/authorise': { authorised: true } });
  attempt.start('tok_first');
  await attempt.attach({});
  attempt.checkConfirm({});
  await attempt.confirm({}, noChallenge);
  attempt.checkAuthorise({ endpoint: '/api/authorise' });
  const answer = await attempt.authorise({ endpoint: '/api/authorise', payload: { order: 42 } });
  assert.equal(answer.authorised, true);
  const [attach, confirm, authorise] = calls;
  assert.deepEqual(attach!.body, { payment_intent_id: 'pi_session', token: 'tok_first' });
  assert.deepEqual(confirm!.body, { payment_intent_id: 'pi_session' });
  assert.deepEqual(authorise!.body, { payment_intent_id: 'pi_session', order: 42 });
  assert.match(attach!.key!, /^[0-9a-f-]{36}$/);
  assert.equal(confirm!.key, attach!.key);
  assert.equal(authorise!.headers!['X-Idempotency-Key'], attach!.key);
  attempt.start('tok_second');
  await attempt.attach({});
  assert.notEqual(calls[3]!.key, attach!.key);
});

test('the order rules: no attach without a token, no confirm before attach or after a refused one, no authorise before requires_authorisation', async () => {
  const { attempt, refusals } = setup({ attach: { status: 'requires_payment_method', error: { message: 'Declined for tok_abcdefgh1234', code: 'card_declined', retriable: false } } });
  assert.throws(() => attempt.checkAttach({}), (e: SdkError) => e.code === 'invalid_state' && /cardElement\.attach: no token/.test(e.message));
  assert.throws(() => attempt.checkConfirm({}), /cardElement\.confirm: call attach\(\) first/);
  attempt.checkAttach({ token: 'tok_given' });
  const answer = await attempt.attach({ token: 'tok_given' });
  assert.equal(answer.status, 'requires_payment_method');
  // The refusal is heard, without the token the service's message named.
  assert.deepEqual(refusals, [{ message: 'Declined for [redacted]', code: 'card_declined', operation: 'attach' }]);
  assert.throws(() => attempt.checkConfirm({}), /requires_payment_method: tokenise and attach another card/);
  assert.throws(() => attempt.checkAuthorise({ endpoint: '/api/authorise' }), /confirm\(\) did not return requires_authorisation/);
  // The token was spent: attaching again needs a new one.
  assert.throws(() => attempt.checkAttach({}), /no token/);
});

test('authorise refuses the service as its endpoint, and verify without middleware.verifyAuth', async () => {
  const { attempt } = setup({ attach: { status: 'requires_confirmation' }, confirm: { status: 'requires_authorisation' } });
  attempt.start('tok_x');
  await attempt.attach({});
  await attempt.confirm({}, noChallenge);
  assert.throws(() => attempt.checkAuthorise({ endpoint: 'https://service.test/intent/authorise' }), (e: SdkError) => e.option === 'endpoint');
  assert.throws(() => attempt.checkAuthorise({ endpoint: '/api/authorise', verify: true }), (e: SdkError) => e.option === 'verify');
  // The Flows' own session route is the service's, on purpose.
  attempt.checkAuthorise({ endpoint: 'https://service.test/intent/authorise' }, true);
  assert.throws(() => attempt.checkConfirm({ autoAuthorise: true }), (e: SdkError) => e.option === 'authorise.endpoint');
  assert.equal(attempt.checkConfirm({ autoAuthorise: true }, '/mw/authorise'), '/mw/authorise');
});

test('a challenge: completed may authorise, failed may not, cancelled keeps the confirm status', async () => {
  for (const [outcome, status, authorisable] of [
    ['completed', 'requires_authorisation', true],
    ['failed', 'failed', false],
    [undefined, 'requires_customer_authentication', false],
  ] as const) {
    const { attempt } = setup({ attach: { status: 'requires_confirmation' }, confirm: { status: 'requires_customer_authentication', challenge: { url: '/challenge', transaction_id: 't' } } });
    attempt.start('tok_x');
    await attempt.attach({});
    const answer = await attempt.confirm({}, async () => (attempt.challenged(outcome, 'pi_session'), outcome));
    assert.equal(answer.status, status);
    if (outcome) assert.equal(answer.three_ds, `challenge_${outcome}`);
    if (authorisable) attempt.checkAuthorise({ endpoint: '/api/authorise' });
    else assert.throws(() => attempt.checkAuthorise({ endpoint: '/api/authorise' }), /did not return requires_authorisation/);
  }
});

test('autoHandle3DS: false leaves the challenge to the caller; a dead end is refused', async () => {
  const { attempt, refusals } = setup({ attach: { status: 'requires_confirmation' }, confirm: { status: 'requires_customer_authentication', challenge: { url: '/c', transaction_id: 't' } } });
  attempt.start('tok_x');
  await attempt.attach({});
  const answer = await attempt.confirm({ autoHandle3DS: false }, noChallenge);
  assert.equal(answer.status, 'requires_customer_authentication');
  assert.deepEqual(refusals, []);
  const failed = setup({ attach: { status: 'requires_confirmation' }, confirm: { status: 'failed' } });
  failed.attempt.start('tok_y');
  await failed.attempt.attach({});
  await failed.attempt.confirm({}, noChallenge);
  assert.deepEqual(failed.refusals, [{ message: 'Cannot proceed to authorisation (failed).', code: 'confirm_failed', operation: 'confirm' }]);
});

test('authorise: a non-object payload goes as `payload`, direct uses the session headers, verify posts to middleware.verifyAuth with the same key', async () => {
  const { attempt, calls, refusals } = setup(
    { attach: { status: 'requires_confirmation' }, confirm: { status: 'requires_authorisation' }, '/api/authorise': { authorised: false }, '/mw/verify': { ok: true }, 'https://service.test/intent/authorise': { authorised: true } },
    { verifyRoute: '/mw/verify' },
  );
  attempt.start('tok_x');
  await attempt.attach({});
  await attempt.confirm({}, noChallenge);
  const answer = await attempt.authorise({ endpoint: '/api/authorise', payload: 'order-42', headers: { 'X-Shop': '1' }, verify: true });
  assert.deepEqual(calls[2]!.body, { payment_intent_id: 'pi_session', payload: 'order-42' });
  assert.equal(calls[2]!.headers!['X-Shop'], '1');
  assert.deepEqual(answer.verify, { ok: true });
  assert.equal(calls[3]!.url, '/mw/verify');
  assert.equal(calls[3]!.headers!['X-Idempotency-Key'], calls[0]!.key);
  assert.deepEqual(refusals, [{ message: 'The payment was not authorised.', code: 'not_authorised', operation: 'authorise' }]);
  await attempt.authorise({ endpoint: 'https://service.test/intent/authorise' }, true);
  assert.equal(calls[4]!.headers!['X-Session'], 'st');
});
