import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_FAILED_ATTEMPTS } from '../../server/payments/payments-service.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, answerChallenge, assertError, fromFrame, backend, createIntent, futureYear, getIntent, readyToAuthorise, tokenOf, tokenise } from './payments-fixtures.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

describe('every test card through the lifecycle', () => {
  const approved: [string, string, string][] = [
    ['visa', CARDS.visa, '424242******4242'],
    ['mastercard', CARDS.mastercard, '555555******4444'],
    ['amex', CARDS.amex, '378282*****0005'],
    ['unknown', '6759649826438453', '675964******8453'], // another Luhn-valid number (maestro range)
    ['visa', CARDS.otherLuhn, '411111******1111'],
  ];
  for (const [scheme, number, masked] of approved) {
    test(`${number}: approved frictionless (${scheme})`, async () => {
      const { session, confirm, attach } = await readyToAuthorise(svc, number);
      assert.equal(attach.error, null);
      assert.equal(confirm.status, 'requires_authorisation');
      assert.equal(confirm.three_ds, 'frictionless');
      assert.equal(confirm.challenge, null);
      const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
      assert.equal(a.body.status, 'succeeded');
      assert.equal(a.body.authorised, true);
      const v = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] });
      assert.equal(v.body.status, 'success');
      assert.equal(v.body.auth.masked_pan, masked);
      if (scheme !== 'unknown') assert.equal(v.body.auth.scheme, scheme);
    });
  }

  test('4000 0000 0000 3220: challenge, approved when completed', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    assert.equal(confirm.status, 'requires_customer_authentication');
    assert.equal(confirm.challenge.transaction_id, confirm.three_ds_transaction_id);
    assert.ok(confirm.challenge.url.startsWith(`${svc.url}/frames/challenge?challenge=`));
    const res = await answerChallenge(svc, confirm.challenge.url, 'complete');
    assert.equal(res.status, 200);
    const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    assert.equal(a.body.authorised, true);
    assert.equal((await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] })).body.status, 'success');
  });

  test('4000 0000 0000 3220: failed when the shopper fails it; a new attempt gets a fresh 3DS id', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    const res = await answerChallenge(svc, confirm.challenge.url, 'fail');
    assert.equal(res.status, 200);
    const intent = await getIntent(svc, session.paymentIntentId);
    assert.equal(intent.status, 'failed');
    assert.equal(intent.attempts[0].outcome, 'authentication_failed');
    assert.equal(intent.attempts[0].three_ds, 'challenge_failed');
    assertError(await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId }), 409);
    // Try again on the same intent: a new attempt with a new 3-D Secure transaction id.
    const retry = await backend(svc, 'attach', { payment_intent_id: session.paymentIntentId, token: await tokenOf(svc, session, CARDS.challenge) });
    assert.equal(retry.body.status, 'requires_customer_confirmation');
    assert.notEqual(retry.body.three_ds_transaction_id, confirm.three_ds_transaction_id);
    const again = await backend(svc, 'confirm', { payment_intent_id: session.paymentIntentId });
    assert.equal(again.body.challenge.transaction_id, retry.body.three_ds_transaction_id);
    await answerChallenge(svc, again.body.challenge.url, 'complete');
    assert.equal((await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId })).body.status, 'succeeded');
    const attempts = (await getIntent(svc, session.paymentIntentId)).attempts;
    assert.equal(attempts.length, 2);
    assert.deepEqual(attempts.map((a: { outcome: string }) => a.outcome), ['authentication_failed', 'authorised']);
    // Tokens are kept as references only.
    assert.match(attempts[1].token, /^tok_/);
  });

  for (const [name, number, code] of [
    ['4000 0000 0000 0002 declined', CARDS.declined, 'card_declined'],
    ['4000 0000 0000 9995 insufficient funds', CARDS.insufficient, 'insufficient_funds'],
  ] as const) {
    test(`${name}: authorised false, status failed`, async () => {
      const { session } = await readyToAuthorise(svc, number);
      const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
      assert.equal(a.status, 200);
      assert.equal(a.body.authorised, false);
      assert.equal(a.body.status, 'failed');
      assert.equal(a.body.error.code, code);
      assert.equal(a.body.authorisation_code, null);
      assert.equal((await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] })).body.status, 'failed');
    });
  }

  for (const [number, retriable] of [
    [CARDS.attachFail, false],
    [CARDS.attachRetriable, true],
  ] as const) {
    test(`${number}: attach returns requires_payment_method, retriable ${retriable}; confirm is refused`, async () => {
      const s = await createIntent(svc);
      const r = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, number) });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'requires_payment_method');
      assert.equal(r.body.error.retriable, retriable);
      assert.equal(r.body.error.type, 'card_error');
      const c = await backend(svc, 'confirm', { payment_intent_id: s.paymentIntentId });
      assertError(c, 409);
      assert.match(c.body.error.message, /requires_payment_method/);
      // Another card on the same intent goes through.
      const ok = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.visa) });
      assert.equal(ok.body.status, 'requires_customer_confirmation');
    });
  }
});

describe('MOTO', () => {
  test('a MOTO intent skips 3-D Secure even for the challenge card', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge, { moto: true });
    assert.equal(confirm.status, 'requires_authorisation');
    assert.equal(confirm.three_ds, 'skipped_moto');
    assert.equal(confirm.challenge, null);
    assert.equal((await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId })).body.authorised, true);
  });
});

describe('tokenisation', () => {
  const bad: [string, Record<string, string>, string, string][] = [
    ['Luhn failure', { number: '4242424242424241' }, 'card[number]', 'incorrect_number'],
    ['letters', { number: '4242abcd42424242' }, 'card[number]', 'invalid_number'],
    ['wrong length for the scheme', { number: '424242424242' }, 'card[number]', 'invalid_number'],
    ['month 13', { exp_month: '13' }, 'card[exp_month]', 'invalid_expiry_month'],
    ['past year', { exp_year: '2001' }, 'card[exp_year]', 'expired_card'],
    ['3-digit year', { exp_year: '203' }, 'card[exp_year]', 'invalid_expiry_year'],
    ['Visa with a 4-digit CSC', { cvc: '1234' }, 'card[cvc]', 'invalid_cvc'],
    ['Amex with a 3-digit CSC', { number: CARDS.amex, cvc: '123' }, 'card[cvc]', 'invalid_cvc'],
    ['empty name', { name: '  ' }, 'card[name]', 'invalid_name'],
  ];
  for (const [name, card, param, code] of bad) {
    test(`${name}: 400 card_error naming ${param}`, async () => {
      const s = await createIntent(svc);
      const r = await tokenise(svc, s, card);
      assertError(r, 400, param, 'card_error');
      assert.equal(r.body.error.code, code);
    });
  }

  test('the month of today is still valid; last month is expired', async () => {
    const s = await createIntent(svc);
    const now = new Date();
    const ok = await tokenise(svc, s, { exp_month: String(now.getUTCMonth() + 1), exp_year: String(now.getUTCFullYear()) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const expired = await tokenise(svc, s, { exp_month: String(last.getUTCMonth() + 1), exp_year: String(last.getUTCFullYear()) });
    assertError(expired, 400, 'card[exp_year]', 'card_error');
  });

  test('a missing card field is a 400 naming it', async () => {
    const s = await createIntent(svc);
    const r = await svc.api('POST', '/frames/tokenise', { headers: { ...fromFrame(svc), ...s.headers }, json: { card: { number: CARDS.visa, exp_month: '12', exp_year: futureYear, name: 'A' } } });
    assertError(r, 400, 'card[cvc]');
  });

  test('the answer carries token, scheme, last4 and expiry; the store keeps no PAN or CSC', async () => {
    const s = await createIntent(svc);
    const r = await tokenise(svc, s, { number: CARDS.mastercard, cvc: '987' });
    assert.equal(r.status, 200);
    assert.match(r.body.data.cp_card_token, /^tok_/);
    assert.equal(r.body.data.scheme, 'mastercard');
    assert.equal(r.body.data.last4, '4444');
    assert.equal(r.body.data.expiry_month, 12);
    assert.equal(r.body.data.expiry_year, Number(futureYear));
    const store = svc.services.store;
    const dump = JSON.stringify(await Promise.all(['card_tokens', 'payment_intents', 'stored_cards', 'idempotency_keys'].map((c) => store.collection(c).all())));
    assert.ok(!dump.includes('5555555555554444'));
    assert.ok(!/"(cvc|number|pan)"/.test(dump), 'a raw card field was stored');
  });

  test('form-encoded bracket bodies work for tokenise', async () => {
    const s = await createIntent(svc);
    const r = await svc.api('POST', '/frames/tokenise', {
      headers: { ...fromFrame(svc), ...s.headers },
      form: { 'card[number]': CARDS.visa, 'card[exp_month]': '1', 'card[exp_year]': futureYear.slice(2), 'card[cvc]': '123', 'card[name]': 'Ada' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.expiry_month, 1);
  });

  test('a token is single-use', async () => {
    const s = await createIntent(svc);
    const token = await tokenOf(svc, s, CARDS.visa);
    assert.equal((await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token })).status, 200);
    const again = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token });
    assertError(again, 400, 'token');
    assert.equal(again.body.error.code, 'token_already_used');
  });

  test('a token is single-use even after a failed attach', async () => {
    const s = await createIntent(svc);
    const token = await tokenOf(svc, s, CARDS.attachRetriable);
    await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token });
    assertError(await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token }), 400, 'token');
  });


  test("a token of another intent cannot be attached", async () => {
    const a = await createIntent(svc);
    const b = await createIntent(svc);
    const token = await tokenOf(svc, a, CARDS.visa);
    assertError(await backend(svc, 'attach', { payment_intent_id: b.paymentIntentId, token }), 404, 'token');
  });
});

describe('card-testing lockout', () => {
  test(`${MAX_FAILED_ATTEMPTS} failed card validations lock the intent`, async () => {
    const s = await createIntent(svc);
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) assertError(await tokenise(svc, s, { number: '4242424242424241' }), 400, 'card[number]');
    const locked = await tokenise(svc, s, { number: CARDS.visa });
    assertError(locked, 409);
    assert.equal(locked.body.error.code, 'payment_intent_locked');
    assert.match(locked.body.error.message, /locked.*failed card attempts/);
    const intent = await getIntent(svc, s.paymentIntentId);
    assert.equal(intent.status, 'cancelled');
    assert.equal(intent.cancellation_reason, 'too_many_failed_attempts');
    assertError(await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: 'tok_x' }), 409);
  });

  test('declines count too: the fifth decline ends in cancelled', async () => {
    const s = await createIntent(svc);
    for (let i = 1; i <= MAX_FAILED_ATTEMPTS; i++) {
      await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.declined) });
      await backend(svc, 'confirm', { payment_intent_id: s.paymentIntentId });
      const a = await backend(svc, 'authorise', { payment_intent_id: s.paymentIntentId });
      assert.equal(a.body.authorised, false);
      assert.equal(a.body.status, i < MAX_FAILED_ATTEMPTS ? 'failed' : 'cancelled');
    }
    assertError(await tokenise(svc, s), 409);
  });
});

describe('vaulting', () => {
  test('storeCard keeps a card_… for the account; a later intent of that account attaches it', async () => {
    const first = await createIntent(svc, { account_id: 'shopper-42' });
    const attach = await backend(svc, 'attach', { payment_intent_id: first.paymentIntentId, token: await tokenOf(svc, first, CARDS.visa), storeCard: true });
    assert.equal(attach.status, 200, JSON.stringify(attach.body));
    const stored = attach.body.stored_card;
    assert.match(stored.id, /^card_/);
    assert.equal(stored.account_id, 'shopper-42');
    assert.equal(stored.last4, '4242');

    const later = await createIntent(svc, { account_id: 'shopper-42', amount: 999 });
    const reuse = await backend(svc, 'attach', { payment_intent_id: later.paymentIntentId, token: stored.id });
    assert.equal(reuse.status, 200, JSON.stringify(reuse.body));
    assert.equal(reuse.body.payment_method.last4, '4242');
    await backend(svc, 'confirm', { payment_intent_id: later.paymentIntentId });
    assert.equal((await backend(svc, 'authorise', { payment_intent_id: later.paymentIntentId })).body.authorised, true);
    // Reusable: a third intent may use it again.
    const third = await createIntent(svc, { account_id: 'shopper-42' });
    assert.equal((await backend(svc, 'attach', { payment_intent_id: third.paymentIntentId, token: stored.id })).status, 200);
    // Another account, or an intent without one, cannot.
    const stranger = await createIntent(svc, { account_id: 'someone-else' });
    assertError(await backend(svc, 'attach', { payment_intent_id: stranger.paymentIntentId, token: stored.id }), 404, 'token');
    const none = await createIntent(svc);
    assertError(await backend(svc, 'attach', { payment_intent_id: none.paymentIntentId, token: stored.id }), 404, 'token');
  });

  test('storeCard without account_id is a 400; recurringIntent vaults implicitly', async () => {
    const s = await createIntent(svc);
    assertError(await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.visa), storeCard: true }), 400, 'storeCard');
    const r = await createIntent(svc, { account_id: 'sub-1', recurringIntent: { type: 'subscription', interval: 'month', interval_count: 1 } });
    const attach = await backend(svc, 'attach', { payment_intent_id: r.paymentIntentId, token: await tokenOf(svc, r, CARDS.mastercard) });
    assert.match(attach.body.stored_card.id, /^card_/);
  });
});
