import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboard, signIn, type DashboardLogin } from '../helpers/dashboard.ts';
import { PENDING_REFUND_SECONDS } from '../../server/payments/test-cards.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { backend, CARDS, createIntent, tokenOf } from './payments-fixtures.ts';

/**
 * The dashboard's payments and events: the same services as the /v1 routes, the signed-in merchant's
 * data only (another's id is a 404, as the API answers it), a payment's timeline from its events, and
 * its actions recorded as the dashboard's requests.
 */
describe('the dashboard\'s payments and events', () => {
  let svc: TestService;
  let login: DashboardLogin;
  let other: DashboardLogin;
  before(async () => {
    svc = await startTestService();
    login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
    other = await signIn(svc, { licence_key: (await svc.services.merchants.create({ origins: [] })).licenceKey });
  });
  after(() => svc?.close());

  /** An intent authorised and waiting for capture, by the backend routes. */
  async function uncaptured(): Promise<string> {
    const session = await createIntent(svc, { autoCapture: false });
    const token = await tokenOf(svc, session, CARDS.visa);
    for (const [op, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const)
      assert.equal((await backend(svc, op, { payment_intent_id: session.paymentIntentId, ...body })).status, 200);
    return session.paymentIntentId;
  }

  it('a payment comes with its events, oldest first, and the verify answer; capture from the dashboard is an event of the dashboard\'s request', async () => {
    const id = await uncaptured();
    const page = await dashboard(svc, 'GET', `/payment_intents/${id}`, { login });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.payment_intent.status, 'requires_capture');
    assert.deepEqual(
      page.body.events.map((e: { type: string }) => e.type),
      // Created; the hosted frame's session started; a card attached; 3-D Secure passed; authorised.
      ['payment_intent.created', 'payment_intent.updated', 'payment_intent.updated', 'payment_intent.updated', 'payment_intent.amount_capturable_updated'],
    );
    assert.equal(page.body.verify.status, 'success');
    assert.equal(page.body.verify.auth.name, '[redacted]');

    const captured = await dashboard(svc, 'POST', `/payment_intents/${id}/capture`, { login, json: { amount: 1000 } });
    assert.equal(captured.status, 200, captured.text);
    assert.equal(captured.body.status, 'succeeded');
    assert.equal(captured.body.amount_captured, 1000);
    const after = (await dashboard(svc, 'GET', `/payment_intents/${id}`, { login })).body;
    const succeeded = after.events.at(-1);
    assert.equal(succeeded.type, 'payment_intent.succeeded');
    assert.equal(succeeded.request.id, captured.headers.get('request-id'), 'the event names the dashboard request that made it');

    const log = (await dashboard(svc, 'GET', '/requests?limit=5', { login })).body.data;
    assert.deepEqual(
      { source: log[0].source, method: log[0].method, path: log[0].path, status: log[0].status, body: log[0].request_body },
      { source: 'dashboard', method: 'POST', path: `/dashboard/api/payment_intents/${id}/capture`, status: 200, body: { amount: 1000 } },
    );
  });

  it('lists the merchant\'s events and reads one, filtered by type as GET /v1/events', async () => {
    const id = await uncaptured();
    const list = await dashboard(svc, 'GET', '/events?limit=3&type=payment_intent.amount_capturable_updated', { login });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data[0].data.object.id, id);
    const one = await dashboard(svc, 'GET', `/events/${list.body.data[0].id}`, { login });
    assert.deepEqual(one.body, list.body.data[0]);
    assert.equal((await dashboard(svc, 'GET', '/events?type=nope', { login })).body.error.param, 'type');
  });

  it('another merchant\'s payment and event answer 404, for reads and actions; its lists hold none of them', async () => {
    const id = await uncaptured();
    const event = (await dashboard(svc, 'GET', `/payment_intents/${id}`, { login })).body.events[0];
    for (const [method, path] of [
      ['GET', `/payment_intents/${id}`],
      ['POST', `/payment_intents/${id}/capture`],
      ['POST', `/payment_intents/${id}/cancel`],
      ['GET', `/events/${event.id}`],
    ] as const) {
      const answer = await dashboard(svc, method, path, { login: other, ...(method === 'POST' ? { json: {} } : {}) });
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
      assert.equal(answer.body.error.code, 'resource_missing');
    }
    assert.deepEqual((await dashboard(svc, 'GET', '/events', { login: other })).body.data, []);
    assert.equal((await dashboard(svc, 'GET', `/payment_intents/${id}`, { login })).body.payment_intent.status, 'requires_capture', 'nothing changed');
  });

  it('an action the intent\'s status does not allow is the API\'s 409, naming the status', async () => {
    const id = await uncaptured();
    assert.equal((await dashboard(svc, 'POST', `/payment_intents/${id}/cancel`, { login, json: {} })).status, 200);
    const again = await dashboard(svc, 'POST', `/payment_intents/${id}/capture`, { login, json: {} });
    assert.equal(again.status, 409);
    assert.match(again.body.error.message, /cancelled/);
    assert.equal((await dashboard(svc, 'POST', `/payment_intents/${id}/capture`, { login, json: { amount: 'x' } })).body.error.param, 'amount');
  });

  it('lists payments a page at a time by cursor, filtered by status and day, and searches by id, reference and metadata', async () => {
    const merchant = await svc.services.merchants.create({ origins: [] });
    const who = await signIn(svc, { licence_key: merchant.licenceKey });
    const made: string[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await svc.api('POST', '/v1/payment_intents', { token: merchant.licenceKey, json: { merchantid: merchant.merchantId, amount: 100 + i, currency: 'GBP', identifier: `ref-${i}`, metadata: { order: String(i % 5) } } });
      made.unshift(r.body.paymentIntentId);
    }
    const first = (await dashboard(svc, 'GET', '/payment_intents?limit=20', { login: who })).body;
    assert.equal(first.has_more, true);
    assert.deepEqual(first.data.map((i: { id: string }) => i.id), made.slice(0, 20));
    const second = (await dashboard(svc, 'GET', `/payment_intents?limit=20&starting_after=${first.data.at(-1).id}`, { login: who })).body;
    assert.deepEqual(second.data.map((i: { id: string }) => i.id), made.slice(20));
    const back = (await dashboard(svc, 'GET', `/payment_intents?limit=20&ending_before=${second.data[0].id}`, { login: who })).body;
    assert.deepEqual(back.data.map((i: { id: string }) => i.id), made.slice(0, 20));

    const search = async (q: string, extra = '') => (await dashboard(svc, 'GET', `/payment_intents?q=${encodeURIComponent(q)}${extra}`, { login: who })).body.data.map((i: { identifier: string }) => i.identifier);
    assert.deepEqual(await search('ref-7'), ['ref-7']);
    assert.deepEqual(await search(made[0]!), ['ref-24']);
    assert.deepEqual(await search('order:3'), ['ref-23', 'ref-18', 'ref-13', 'ref-8', 'ref-3']);
    assert.deepEqual(await search('nothing-like-it'), []);
    assert.deepEqual(await search('ref-7', '&status=succeeded'), []);
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await dashboard(svc, 'GET', `/payment_intents?limit=100&created[gte]=${now - 600}&created[lte]=${now + 600}`, { login: who })).body.data.length, 25);
    assert.equal((await dashboard(svc, 'GET', `/payment_intents?created[lte]=${now - 3600}`, { login: who })).body.data.length, 0);
    assert.equal((await dashboard(svc, 'GET', '/payment_intents?status=nope', { login: who })).body.error.param, 'status');
    // Another merchant's id is found by nobody else.
    assert.deepEqual((await dashboard(svc, 'GET', `/payment_intents?q=${made[0]}`, { login })).body.data, []);
  });

  it('refunds part of a payment, shows the refund and its events on the payment, edits metadata', async () => {
    const session = await createIntent(svc);
    const token = await tokenOf(svc, session, CARDS.visa);
    for (const [op, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const)
      assert.equal((await backend(svc, op, { payment_intent_id: session.paymentIntentId, ...body })).status, 200);
    const id = session.paymentIntentId;
    const refund = await dashboard(svc, 'POST', '/refunds', { login, json: { payment_intent: id, amount: 500, reason: 'requested_by_customer' } });
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.body.amount, 500);
    const page = (await dashboard(svc, 'GET', `/payment_intents/${id}`, { login })).body;
    assert.equal(page.payment_intent.amount_refunded, 500);
    assert.deepEqual(page.refunds.map((r: { id: string }) => r.id), [refund.body.id]);
    assert.ok(page.events.some((e: { type: string; data: { object: { id: string } } }) => e.type === 'refund.created' && e.data.object.id === refund.body.id), 'the refund\'s event is on the timeline');
    const tooMuch = await dashboard(svc, 'POST', '/refunds', { login, json: { payment_intent: id, amount: 100_000 } });
    assert.equal(tooMuch.status, 400);
    assert.equal(tooMuch.body.error.code, 'amount_too_large');
    assert.equal((await dashboard(svc, 'POST', '/refunds', { login: other, json: { payment_intent: id, amount: 1 } })).status, 404, 'not another merchant\'s');

    const edited = await dashboard(svc, 'POST', `/payment_intents/${id}`, { login, json: { metadata: { order: '6735', note: 'gift' } } });
    assert.deepEqual(edited.body.metadata, { order: '6735', note: 'gift' });
    const removed = await dashboard(svc, 'POST', `/payment_intents/${id}`, { login, json: { metadata: { note: '' } } });
    assert.deepEqual(removed.body.metadata, { order: '6735' });
    assert.equal((await dashboard(svc, 'POST', `/payment_intents/${id}`, { login: other, json: { metadata: { x: 'y' } } })).status, 404);
  });
});

describe("a payment's page while its refund settles", () => {
  const clock = new ManualClock();
  let svc: TestService;
  let login: DashboardLogin;
  before(async () => {
    svc = await startTestService({}, clock);
    login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
  });
  after(() => svc?.close());

  it('a refund that settles failed between the page\'s reads shows as failed beside nothing refunded, as the intent is', async () => {
    const session = await createIntent(svc);
    const token = await tokenOf(svc, session, '4000000000005126');
    for (const [op, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const)
      assert.equal((await backend(svc, op, { payment_intent_id: session.paymentIntentId, ...body })).status, 200);
    const id = session.paymentIntentId;
    assert.equal((await dashboard(svc, 'POST', '/refunds', { login, json: { payment_intent: id, amount: 1234 } })).body.status, 'pending');
    // The settlement runs exactly after the page has read the intent, before it reads the refunds:
    // the one place two reads of one request can disagree.
    const payments = svc.services.payments;
    const list = payments.listRefunds.bind(payments);
    let settledBetween = 0;
    payments.listRefunds = async (...args) => {
      if (!settledBetween) {
        clock.advance(PENDING_REFUND_SECONDS);
        settledBetween = await payments.settleDueRefunds();
      }
      return list(...args);
    };
    try {
      const page = (await dashboard(svc, 'GET', `/payment_intents/${id}`, { login })).body;
      assert.equal(settledBetween, 1, 'the refund settled between the reads');
      assert.deepEqual(page.refunds.map((r: { status: string }) => r.status), ['failed']);
      assert.equal(page.payment_intent.amount_refunded, 0, 'the failed refund gave the amount back');
      assert.equal(page.verify.auth.amount_refunded, 0);
      assert.ok(page.events.some((e: { type: string }) => e.type === 'refund.failed'), 'its event is on the timeline');
    } finally {
      payments.listRefunds = list;
    }
  });
});
