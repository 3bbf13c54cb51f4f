import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Stripe from 'stripe';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS } from './payments-fixtures.ts';

/**
 * Where CPE's routes have the Stripe API's names (refunds; the intents' list, retrieve and update),
 * the official `stripe` Node client, pointed at the local service, drives them unchanged: its form
 * encoding of `metadata[key]`, nested `created[gte]`, arrays as `status[0]`, its list cursors
 * (auto-pagination) and its error objects. Only the host, port and protocol are changed.
 */
let svc: TestService;
let stripe: Stripe;
before(async () => {
  svc = await startTestService();
  const { port } = new URL(svc.url);
  stripe = new Stripe(svc.credentials.licenceKey, { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
});
after(() => svc.close());

/** A succeeded intent made with CPE's own routes (its create and confirm differ from Stripe's). */
async function paidIntent(metadata: Record<string, string>, amount = 2000): Promise<string> {
  const key = svc.credentials.licenceKey;
  const created = await svc.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: svc.credentials.merchantId, amount, currency: 'GBP', identifier: 'stripe-client', metadata } });
  const id = created.body.paymentIntentId;
  const token = await svc.api('POST', '/v1/tokens', { token: key, json: { card: { number: CARDS.visa, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'A' } } });
  for (const [op, body] of [['attach', { token: token.body.data.cp_card_token }], ['confirm', {}], ['authorise', {}]] as const)
    assert.equal((await svc.api('POST', `/v1/payment_intents/${op}`, { token: key, json: { payment_intent_id: id, ...body } })).status, 200);
  return id;
}

test('stripe.refunds.create/retrieve/list: form-encoded metadata[key], reason, amount; the list filters by payment_intent and created[gte]', async () => {
  const id = await paidIntent({ order: 'stripe-1' });
  const refund = await stripe.refunds.create({ payment_intent: id, amount: 750, reason: 'requested_by_customer', metadata: { ticket: 'T-9', 'with space': 'a&b=c' } });
  assert.deepEqual(
    [refund.object, refund.amount, refund.status, refund.reason, refund.payment_intent, refund.metadata],
    ['refund', 750, 'succeeded', 'requested_by_customer', id, { ticket: 'T-9', 'with space': 'a&b=c' }],
  );
  assert.equal((await stripe.refunds.retrieve(refund.id)).amount, 750);
  const listed = await stripe.refunds.list({ payment_intent: id, created: { gte: refund.created }, limit: 3 });
  assert.deepEqual(listed.data.map((r) => r.id), [refund.id]);
  assert.equal(listed.has_more, false);
});

test("a refund above what remains is the client's StripeInvalidRequestError with code amount_too_large and param amount", async () => {
  const id = await paidIntent({});
  await stripe.refunds.create({ payment_intent: id, amount: 1500 });
  await assert.rejects(
    () => stripe.refunds.create({ payment_intent: id, amount: 501 }),
    (error: unknown) =>
      error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'amount_too_large' && error.param === 'amount' && error.statusCode === 400 && /£5\.00 \(500\)/.test(error.message),
  );
});

test('stripe.paymentIntents.update (metadata[key]= removes a key) and retrieve', async () => {
  const id = await paidIntent({ order: 'stripe-2', channel: 'web' });
  const updated = await stripe.paymentIntents.update(id, { metadata: { channel: '', gift: 'yes' }, description: 'Boxed' });
  assert.deepEqual([updated.metadata, updated.description, updated.status], [{ order: 'stripe-2', gift: 'yes' }, 'Boxed', 'succeeded']);
  const again = await stripe.paymentIntents.retrieve(id);
  assert.deepEqual([again.amount_received, again.amount_capturable, again.metadata], [2000, 0, { order: 'stripe-2', gift: 'yes' }]);
});

test('stripe.paymentIntents.list: created[gte], status[0..n] and metadata[key] as the client encodes them; auto-pagination walks the cursors', async () => {
  const tag = `walk-${Date.now()}`;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(await paidIntent({ walk: tag }, 100 + i));
  // CPE's filters beyond the Stripe list's parameters (status, metadata) go through the client's own encoding too.
  const params = { limit: 2, status: ['succeeded', 'requires_capture'], metadata: { walk: tag } } as unknown as Stripe.PaymentIntentListParams;
  const page = await stripe.paymentIntents.list(params);
  assert.deepEqual([page.data.map((i) => i.id), page.has_more], [[ids[4], ids[3]], true]);
  const all = await stripe.paymentIntents.list(params).autoPagingToArray({ limit: 100 });
  assert.deepEqual(all.map((i) => i.id), [...ids].reverse());
  const recent = await stripe.paymentIntents.list({ created: { gte: all[0].created }, limit: 100 });
  assert.ok(recent.data.some((i) => i.id === ids[4]));
});
