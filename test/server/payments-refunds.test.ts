import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PENDING_REFUND_SECONDS } from '../../server/payments/test-cards.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { assertError, backend, CARDS, createIntent, getIntent, readyToAuthorise } from './payments-fixtures.ts';

/**
 * Refunds (POST/GET /v1/refunds) on the engine under test: partial refunds to the cent, what
 * remains named when a refund asks for more, only captured money, concurrent refunds never above the
 * capture, the refund-failure card (4000 0000 0000 5126) pending then failed on a controllable clock.
 */
const clock = new ManualClock();
let svc: TestService;
before(async () => (svc = await startTestService({}, clock)));
after(() => svc.close());

const licence = () => svc.credentials.licenceKey;
const refund = (json: Record<string, unknown>, headers: Record<string, string> = {}, token = licence()) => svc.api('POST', '/v1/refunds', { token, json, headers });

/** A succeeded intent of `amount` paid with `card` (auto capture unless told). */
async function paid(amount = 1234, card: string = CARDS.visa, extra: Record<string, unknown> = {}): Promise<string> {
  const { session } = await readyToAuthorise(svc, card, { amount, ...extra });
  const r = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
  assert.equal(r.body.authorised, true, JSON.stringify(r.body));
  return session.paymentIntentId;
}

describe('refunds', () => {
  test('without amount, everything captured is refunded; the intent stays succeeded and counts it', async () => {
    const id = await paid(1234);
    const r = await refund({ payment_intent: id, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.id, /^re_/);
    assert.deepEqual(
      { object: r.body.object, payment_intent: r.body.payment_intent, amount: r.body.amount, currency: r.body.currency, status: r.body.status, reason: r.body.reason, failure_reason: r.body.failure_reason, metadata: r.body.metadata },
      { object: 'refund', payment_intent: id, amount: 1234, currency: 'GBP', status: 'succeeded', reason: 'requested_by_customer', failure_reason: null, metadata: { ticket: 'T-1' } },
    );
    assert.equal(r.body.created, clock.now());
    const intent = await getIntent(svc, id);
    assert.deepEqual([intent.status, intent.amount_received, intent.amount_refunded, intent.amount_capturable], ['succeeded', 1234, 1234, 0]);
    const again = await svc.api('GET', `/v1/refunds/${r.body.id}`, { token: licence() });
    assert.deepEqual(again.body, r.body);
    const verify = await backend(svc, 'verify', { payment_intent_id: id, unmask_fields: [] });
    assert.deepEqual([verify.body.status, verify.body.auth.amount_captured, verify.body.auth.amount_refunded], ['success', 1234, 1234]);
  });

  test('partial refunds add up to the cent; one more than remains is amount_too_large naming what remains', async () => {
    const id = await paid(1234);
    for (const amount of [1000, 233]) assert.equal((await refund({ payment_intent: id, amount })).body.amount, amount);
    const over = await refund({ payment_intent: id, amount: 2 });
    assertError(over, 400, 'amount', 'invalid_request_error');
    assert.equal(over.body.error.code, 'amount_too_large');
    assert.match(over.body.error.message, /what remains refundable of payment intent pi_\w+: £0\.01 \(1\)/);
    assert.equal((await refund({ payment_intent: id, amount: 1 })).status, 200);
    const done = await refund({ payment_intent: id });
    assertError(done, 400, 'payment_intent');
    assert.equal(done.body.error.code, 'charge_already_refunded');
    assert.equal((await getIntent(svc, id)).amount_refunded, 1234);
    const list = await svc.api('GET', `/v1/refunds?payment_intent=${id}`, { token: licence() });
    assert.deepEqual(list.body.data.map((r: { amount: number }) => r.amount), [1, 233, 1000], 'newest first');
  });

  test('a partial capture refunds only what was captured; an uncaptured or unpaid intent refunds nothing (409)', async () => {
    const deferred = await paid(1000, CARDS.visa, { autoCapture: false });
    const uncaptured = await refund({ payment_intent: deferred });
    assertError(uncaptured, 409, 'payment_intent');
    assert.equal(uncaptured.body.error.code, 'payment_intent_unexpected_state');
    assert.equal((await getIntent(svc, deferred)).amount_capturable, 1000);
    const captured = await backend(svc, 'capture', { payment_intent_id: deferred, amount: 600 });
    assert.deepEqual([captured.body.amount_capturable, captured.body.amount_received], [0, 600], 'the rest is released');
    const over = await refund({ payment_intent: deferred, amount: 601 });
    assert.equal(over.body.error.code, 'amount_too_large');
    assert.match(over.body.error.message, /£6\.00 \(600\)/);
    assert.equal((await refund({ payment_intent: deferred })).body.amount, 600);
    assertError(await refund({ payment_intent: (await createIntent(svc)).paymentIntentId }), 409, 'payment_intent');
  });

  test('bad input is a 400 naming the field; unknown and other merchants\' ids are 404', async () => {
    const id = await paid(500);
    assertError(await refund({ payment_intent: id, amount: 0 }), 400, 'amount');
    assertError(await refund({ payment_intent: id, amount: 12.5 }), 400, 'amount');
    assertError(await refund({ payment_intent: id, reason: 'changed_mind' }), 400, 'reason');
    assertError(await refund({ payment_intent: id, metadata: { ['k'.repeat(41)]: 'v' } }), 400, `metadata[${'k'.repeat(41)}]`);
    assertError(await refund({ amount: 5 }), 400, 'payment_intent');
    assertError(await refund({ payment_intent: 'pi_nope' }), 404, 'payment_intent');
    const mine = await refund({ payment_intent: id, amount: 100 });
    const other = await svc.services.merchants.create({ origins: ['https://other.example'] });
    assertError(await refund({ payment_intent: id }, {}, other.licenceKey), 404, 'payment_intent');
    assertError(await svc.api('GET', `/v1/refunds/${mine.body.id}`, { token: other.licenceKey }), 404, 'id');
    assertError(await svc.api('GET', `/v1/refunds?payment_intent=${id}`, { token: other.licenceKey }), 404, 'payment_intent');
    assert.deepEqual((await svc.api('GET', '/v1/refunds', { token: other.licenceKey })).body.data, []);
    assert.equal((await refund({ payment_intent: id }, {}, svc.credentials.publicKey)).status, 401);
    assert.equal((await getIntent(svc, id)).amount_refunded, 100, 'nothing refused changed the intent');
  });

  test('one idempotency key refunds once', async () => {
    const id = await paid(900);
    const headers = { 'X-Idempotency-Key': `refund-${id}` };
    const answers = await Promise.all([1, 2, 3].map(() => refund({ payment_intent: id, amount: 300 }, headers)));
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    assert.equal((await getIntent(svc, id)).amount_refunded, 300);
  });

  test('concurrent refunds never add up to more than was captured', async () => {
    const id = await paid(1234);
    const answers = await Promise.all(Array.from({ length: 12 }, () => refund({ payment_intent: id, amount: 200 })));
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 6, answers.map((a) => a.status).join(','));
    for (const a of answers.filter((a) => a.status !== 200)) assert.equal(a.body.error.code, 'amount_too_large');
    assert.equal((await getIntent(svc, id)).amount_refunded, 1200);
  });

  test('card 4000 0000 0000 5126: the refund is pending, then failed a few seconds later; the money is refundable again', async () => {
    const id = await paid(800, '4000000000005126');
    const pending = await refund({ payment_intent: id, amount: 500 });
    assert.deepEqual([pending.body.status, pending.body.failure_reason], ['pending', null]);
    assert.equal((await getIntent(svc, id)).amount_refunded, 500, 'a pending refund counts');
    assertError(await refund({ payment_intent: id, amount: 301 }), 400, 'amount');

    // Not yet due: the job leaves it pending.
    clock.advance(PENDING_REFUND_SECONDS - 1);
    await svc.services.payments.settleDueRefunds();
    assert.equal((await svc.api('GET', `/v1/refunds/${pending.body.id}`, { token: licence() })).body.status, 'pending');

    clock.advance(1);
    assert.ok((await svc.services.payments.settleDueRefunds()) >= 1);
    const failed = await svc.api('GET', `/v1/refunds/${pending.body.id}`, { token: licence() });
    assert.deepEqual([failed.body.status, failed.body.failure_reason, failed.body.amount], ['failed', 'expired_or_canceled_card', 500]);
    assert.equal((await getIntent(svc, id)).amount_refunded, 0, 'a failed refund gives its amount back');
    assert.equal(await svc.services.payments.settleDueRefunds(), 0, 'settled once');
    const again = await refund({ payment_intent: id });
    assert.deepEqual([again.body.status, again.body.amount], ['pending', 800]);
  });

  test('events: refund.created then refund.succeeded; for 5126, refund.created, later refund.updated and refund.failed (no request); the intent\'s amount_refunded is payment_intent.updated', async () => {
    const eventsOf = async (id: string) => {
      const page = await svc.api('GET', `/v1/events?limit=100`, { token: licence() });
      return page.body.data.filter((e: any) => e.data.object.id === id).reverse();
    };
    const id = await paid(700);
    const done = await refund({ payment_intent: id, amount: 200 }, { 'X-Idempotency-Key': `ev-${id}` });
    const events = await eventsOf(done.body.id);
    assert.deepEqual(events.map((e: any) => e.type), ['refund.created', 'refund.succeeded']);
    for (const event of events) assert.deepEqual([event.data.object, event.request?.idempotency_key], [done.body, `ev-${id}`]);
    const intentEvents = await eventsOf(id);
    assert.equal(intentEvents.at(-1).type, 'payment_intent.updated');
    assert.deepEqual([intentEvents.at(-1).data.object.amount_refunded, intentEvents.at(-1).data.previous_attributes], [200, { amount_refunded: 0 }]);

    const failing = await paid(600, '4000000000005126');
    const pending = await refund({ payment_intent: failing, amount: 600 });
    assert.deepEqual((await eventsOf(pending.body.id)).map((e: any) => [e.type, e.data.object.status]), [['refund.created', 'pending']]);
    clock.advance(PENDING_REFUND_SECONDS);
    await svc.services.payments.settleDueRefunds();
    const settled = await eventsOf(pending.body.id);
    assert.deepEqual(settled.map((e: any) => [e.type, e.data.object.status]), [['refund.created', 'pending'], ['refund.updated', 'failed'], ['refund.failed', 'failed']]);
    assert.deepEqual(settled[1].data.previous_attributes, { status: 'pending', failure_reason: null });
    assert.equal(settled[1].request, null, 'the settlement job made it, not a request');
    const back = (await eventsOf(failing)).at(-1);
    assert.deepEqual([back.type, back.data.object.amount_refunded, back.request], ['payment_intent.updated', 0, null]);
  });

  test('GET /v1/refunds pages newest first with cursors, and filters by created', async () => {
    const other = await svc.services.merchants.create({ origins: ['https://pages.example'] });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await svc.api('POST', '/v1/payment_intents', { token: other.licenceKey, json: { merchantid: other.merchantId, amount: 100, currency: 'EUR', identifier: `o-${i}` } });
      const pi = created.body.paymentIntentId;
      const token = await svc.api('POST', '/v1/tokens', { token: other.licenceKey, json: { card: { number: CARDS.visa, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'A' } } });
      for (const [op, body] of [['attach', { token: token.body.data.cp_card_token }], ['confirm', {}], ['authorise', {}]] as const)
        assert.equal((await svc.api('POST', `/v1/payment_intents/${op}`, { token: other.licenceKey, json: { payment_intent_id: pi, ...body } })).status, 200);
      if (i === 3) clock.advance(100);
      made.push((await refund({ payment_intent: pi, amount: 10 + i }, {}, other.licenceKey)).body.id);
    }
    const page1 = await svc.api('GET', '/v1/refunds?limit=2', { token: other.licenceKey });
    assert.deepEqual(page1.body.data.map((r: { id: string }) => r.id), [made[4], made[3]]);
    assert.equal(page1.body.has_more, true);
    const page2 = await svc.api('GET', `/v1/refunds?limit=2&starting_after=${made[3]}`, { token: other.licenceKey });
    assert.deepEqual(page2.body.data.map((r: { id: string }) => r.id), [made[2], made[1]]);
    const back = await svc.api('GET', `/v1/refunds?limit=2&ending_before=${made[2]}`, { token: other.licenceKey });
    assert.deepEqual(back.body.data.map((r: { id: string }) => r.id), [made[4], made[3]]);
    const recent = await svc.api('GET', `/v1/refunds?created[gte]=${clock.now()}`, { token: other.licenceKey });
    assert.deepEqual(recent.body.data.map((r: { id: string }) => r.id), [made[4], made[3]]);
  });
});
