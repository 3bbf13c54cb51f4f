import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { verifyWebhook, WebhookVerificationError } from '../../client/index.ts';
import { refusal } from '../../server/webhooks/address-guard.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { Receiver } from '../helpers/receiver.ts';
import { scaled } from '../../testkit/time.ts';
import { backend, CARDS, createIntent, tokenOf } from './payments-fixtures.ts';

/**
 * Webhook endpoints and signed delivery (server/webhooks/): every event an endpoint takes is posted
 * to it, signed the Standard Webhooks way (checked by the `standardwebhooks` and `svix` packages
 * unmodified), retried on the schedule by a clock the test moves (never a wait on the wall clock),
 * a 410 disables it, one slow receiver holds up only its own endpoint. Runs on both engines.
 */

const RETRIES = [1_000, 2_000, 4_000];

let svc: TestService;
let clock: ManualClock;
let receiver: Receiver;
before(async () => {
  clock = new ManualClock();
  // A receiver of these tests answers at once, however loaded the machine: no timeout counts it failed.
  // The timeout itself is tested on a service of its own, with a short one.
  svc = await startTestService({ webhookRetrySchedule: RETRIES, webhookTimeoutMs: scaled(60_000) }, clock);
  receiver = await Receiver.start();
});
after(async () => {
  await svc.close();
  await receiver.close();
});

const licence = () => svc.credentials.licenceKey;
const deliver = () => svc.services.webhooks.deliverer.drain();

/** An endpoint of `on` (the suite's service unless said), made with `token` (its licence key unless said). */
async function endpoint(url: string, enabled_events: string[] = ['*'], token?: string, on = svc) {
  const r = await on.api('POST', '/v1/webhook_endpoints', { token: token ?? on.credentials.licenceKey, json: { url, enabled_events } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { id: string; secret: string; url: string };
}

const attempts = async (id: string, query = '', on = svc) => {
  const r = await on.api('GET', `/v1/webhook_endpoints/${id}/attempts?limit=100${query}`, { token: on.credentials.licenceKey });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as any[];
};

/** A frictionless payment: its intent id (five events: created, updated ×2, succeeded… as it goes). */
async function pay(): Promise<string> {
  const s = await createIntent(svc);
  await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.visa) });
  await backend(svc, 'confirm', { payment_intent_id: s.paymentIntentId });
  await backend(svc, 'authorise', { payment_intent_id: s.paymentIntentId });
  return s.paymentIntentId;
}

const eventsOf = async (intentId: string) =>
  (await svc.api('GET', '/v1/events?limit=100&type=payment_intent.*', { token: licence() })).body.data.filter((e: any) => e.data.object.id === intentId).reverse();

describe('webhook endpoints', () => {
  test('create shows the secret once; list, retrieve and update never do; another owner gets 404', async () => {
    const made = await endpoint('https://shop.example/hooks', ['payment_intent.succeeded', 'payment_intent.*']);
    assert.match(made.id, /^we_/);
    assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual({ ...made, id: 'x', secret: 'x', created: 0 }, {
      id: 'x',
      object: 'webhook_endpoint',
      url: 'https://shop.example/hooks',
      enabled_events: ['payment_intent.succeeded', 'payment_intent.*'],
      description: null,
      status: 'enabled',
      disabled_reason: null,
      created: 0,
      secret: 'x',
    });
    const one = await svc.api('GET', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
    assert.equal(one.body.secret, undefined);
    const list = await svc.api('GET', '/v1/webhook_endpoints', { token: licence() });
    assert.ok(list.body.data.some((e: any) => e.id === made.id && e.secret === undefined));
    const updated = await svc.api('POST', `/v1/webhook_endpoints/${made.id}`, {
      token: licence(),
      form: { url: 'https://shop.example/v2', 'enabled_events[0]': 'payment_intent.cancelled', description: 'orders', disabled: 'true' },
    });
    assert.deepEqual([updated.body.url, updated.body.enabled_events, updated.body.description, updated.body.status], ['https://shop.example/v2', ['payment_intent.cancelled'], 'orders', 'disabled']);
    assert.match(updated.body.disabled_reason, /by you/);

    const other = await svc.services.merchants.create({ origins: ['http://other.test'] });
    const user = (await svc.services.users.issueToken('webhook-user')).accessToken;
    for (const token of [other.licenceKey, user]) {
      for (const [method, path] of [['GET', ''], ['POST', ''], ['DELETE', ''], ['POST', '/rotate_secret'], ['GET', '/attempts']] as const) {
        const r = await svc.api(method, `/v1/webhook_endpoints/${made.id}${path}`, { token, ...(method === 'POST' ? { json: {} } : {}) });
        assert.equal(r.status, 404, `${method} ${path}: ${JSON.stringify(r.body)}`);
      }
    }
    const deleted = await svc.api('DELETE', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
    assert.deepEqual(deleted.body, { id: made.id, object: 'webhook_endpoint', deleted: true });
    assert.equal((await svc.api('GET', `/v1/webhook_endpoints/${made.id}`, { token: licence() })).status, 404);
  });

  test('bad input is a 400 naming its field', async () => {
    const user = (await svc.services.users.issueToken('webhook-user-2')).accessToken;
    for (const [token, body, param] of [
      [licence(), { url: 'ftp://shop.example/x', enabled_events: ['*'] }, 'url'],
      [licence(), { url: 'https://user:pw@shop.example/x', enabled_events: ['*'] }, 'url'],
      [licence(), { url: 'https://shop.example/x', enabled_events: [] }, 'enabled_events'],
      [licence(), { url: 'https://shop.example/x', enabled_events: ['payment_intent.paid'] }, 'enabled_events[0]'],
      [licence(), { url: 'https://shop.example/x', enabled_events: ['*', 'contact.created'] }, 'enabled_events[1]'],
      [user, { url: 'https://shop.example/x', enabled_events: ['payment_intent.*'] }, 'enabled_events[0]'],
      [licence(), { url: 'https://shop.example/x' }, 'enabled_events'],
    ] as const) {
      const r = await svc.api('POST', '/v1/webhook_endpoints', { token, json: body });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.param, param, JSON.stringify(r.body));
    }
  });

  test('at most 16 endpoints per owner', async () => {
    const merchant = await svc.services.merchants.create({ origins: ['http://many.test'] });
    for (let i = 0; i < 16; i++) await endpoint(`https://shop.example/${i}`, ['*'], merchant.licenceKey);
    const r = await svc.api('POST', '/v1/webhook_endpoints', { token: merchant.licenceKey, json: { url: 'https://shop.example/17', enabled_events: ['*'] } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'limit_exceeded');
  });
});

describe('delivery', () => {
  test('every event the endpoint takes is posted, signed: standardwebhooks, svix and verifyWebhook accept it unmodified', async () => {
    const made = await endpoint(receiver.url, ['payment_intent.*']);
    const before = receiver.received.length;
    const id = await pay();
    await deliver();
    const events = await eventsOf(id);
    // Created; the session starts (the hosted frame tokenises), a card is attached, 3-D Secure passes; succeeded.
    assert.deepEqual(events.map((e: any) => e.type), ['payment_intent.created', ...Array(3).fill('payment_intent.updated'), 'payment_intent.succeeded']);
    const got = receiver.received.slice(before).filter((r) => r.event.data?.object?.id === id);
    assert.deepEqual(new Set(got.map((r) => r.id)), new Set(events.map((e: any) => e.id)), 'each event once');
    for (const request of got) {
      const event = events.find((e: any) => e.id === request.id);
      assert.equal(request.body, JSON.stringify(event), 'the body is the event as GET /v1/events/:id answers it');
      assert.equal(request.headers['content-type'], 'application/json');
      assert.match(String(request.headers['user-agent']), /^CPE-Webhooks\//);
      const headers = { 'webhook-id': request.id, 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
      assert.deepEqual(new StandardWebhook(made.secret).verify(request.body, headers), event);
      const svix = { 'svix-id': headers['webhook-id'], 'svix-timestamp': headers['webhook-timestamp'], 'svix-signature': headers['webhook-signature'] };
      assert.deepEqual(new SvixWebhook(made.secret).verify(request.body, svix), event);
      assert.deepEqual(verifyWebhook(request.body, request.headers, made.secret), event);
      // A changed body fails every verifier.
      const changed = request.body.replace(`"amount":${event.data.object.amount}`, `"amount":${event.data.object.amount + 1}`);
      assert.notEqual(changed, request.body);
      assert.throws(() => new StandardWebhook(made.secret).verify(changed, headers));
      assert.throws(() => verifyWebhook(changed, request.headers, made.secret), (error: any) => error instanceof WebhookVerificationError && error.code === 'invalid_signature');
    }
    const listed = await attempts(made.id);
    assert.ok(listed.length >= 5 && listed.every((a) => a.result === 'succeeded' && a.status_code === 200 && a.number === 1 && a.next_retry_at === null));
    assert.equal(listed[0].response_body, '{"ok":true}');
    await svc.api('DELETE', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
  });

  test('an endpoint receives only the events it takes, and only its owner\'s', async () => {
    const own = await Receiver.start();
    const user = (await svc.services.users.issueToken('hooked-user')).accessToken;
    try {
      const merchantHook = await endpoint(own.url, ['payment_intent.succeeded']);
      const userHook = await endpoint(`${own.url}/user`, ['contact.*'], user);
      const id = await pay();
      await svc.api('POST', '/v1/contacts', { token: user, json: { username: 'ada', phone_number: '+441234567' } });
      await deliver();
      const types = own.received.map((r) => [r.event.type, r.event.data.object.id === id || r.event.type.startsWith('contact.')]);
      assert.deepEqual(types.filter(([type]) => type === 'payment_intent.succeeded').length, own.received.filter((r) => r.event.type.startsWith('payment_intent.')).length, 'no other payment event');
      assert.deepEqual(own.received.filter((r) => r.event.type.startsWith('contact.')).map((r) => r.event.type), ['contact.created']);
      assert.ok(own.received.every((r) => !r.event.type.startsWith('conversation.')), 'conversation.created is not contact.*');
      await svc.api('DELETE', `/v1/webhook_endpoints/${merchantHook.id}`, { token: licence() });
      await svc.api('DELETE', `/v1/webhook_endpoints/${userHook.id}`, { token: user });
    } finally {
      await own.close();
    }
  });

  test('a failure is retried on the schedule (1 s, 2 s, 4 s here) as the clock moves; then it succeeds', async () => {
    const flaky = await Receiver.start();
    try {
      flaky.reply = (_, n) => (n <= 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 });
      const made = await endpoint(flaky.url, ['payment_intent.created']);
      const s = await createIntent(svc);
      await deliver();
      let listed = await attempts(made.id);
      assert.equal(listed.length, 1);
      assert.equal(listed[0].status_code, 500);
      assert.equal(listed[0].response_body.length, 2048, 'the first 2 KiB of the answer');
      assert.equal(listed[0].result, 'failed');
      assert.ok(listed[0].next_retry_at >= clock.now() + 1 && listed[0].next_retry_at <= clock.now() + 2, `retry due in 1 s (jitter ≤ 10%): ${listed[0].next_retry_at - clock.now()}`);
      // Not yet due: nothing is sent.
      await deliver();
      assert.equal(flaky.received.length, 1);
      clock.advance(2);
      await deliver();
      clock.advance(3);
      await deliver();
      listed = await attempts(made.id);
      assert.deepEqual(listed.map((a) => [a.number, a.status_code, a.result]), [[3, 204, 'succeeded'], [2, 500, 'failed'], [1, 500, 'failed']]);
      assert.ok(listed.every((a) => a.event === flaky.received[0].id && a.event_type === 'payment_intent.created' && a.manual === false));
      assert.equal(flaky.received.at(-1)!.event.data.object.id, s.paymentIntentId);
      // The same event id each time, a new timestamp and signature.
      assert.equal(new Set(flaky.received.map((r) => r.id)).size, 1);
      await svc.api('DELETE', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
    } finally {
      await flaky.close();
    }
  });

  test('after the last retry it is failed; a timeout and a refused connection count as failures', async () => {
    // A service of its own with a 2 s timeout: the receiver never answers, so it always times out.
    const own = new ManualClock();
    const service = await startTestService({ webhookRetrySchedule: RETRIES, webhookTimeoutMs: 2_000 }, own);
    const dead = await Receiver.start();
    const drain = () => service.services.webhooks.deliverer.drain();
    const listOf = (id: string) => attempts(id, '', service);
    try {
      dead.reply = () => 'hang';
      const made = await endpoint(dead.url, ['payment_intent.created'], undefined, service);
      await createIntent(service);
      await drain();
      let listed = await listOf(made.id);
      assert.equal(listed[0].status_code, null);
      assert.match(listed[0].error, /timed out after 2000 ms/);
      // The receiver goes away: the connection is refused.
      await dead.close();
      for (const seconds of [2, 3, 5]) {
        own.advance(seconds);
        await drain();
      }
      listed = await listOf(made.id);
      assert.deepEqual(listed.map((a) => a.number), [4, 3, 2, 1], 'the first attempt and three retries');
      assert.match(listed[0].error, /connection refused/);
      assert.equal(listed[0].next_retry_at, null, 'no retry after the last');
      own.advance(3600);
      await drain();
      assert.equal((await listOf(made.id)).length, 4, 'failed: nothing more');
    } finally {
      await dead.close().catch(() => {});
      await service.close();
    }
  });

  test('a 410 disables the endpoint and says so; nothing more is sent until it is enabled again', async () => {
    const gone = await Receiver.start();
    try {
      gone.reply = () => ({ status: 410 });
      const made = await endpoint(gone.url, ['payment_intent.created']);
      await createIntent(svc);
      await deliver();
      const after410 = await svc.api('GET', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
      assert.equal(after410.body.status, 'disabled');
      assert.match(after410.body.disabled_reason, /410 Gone/);
      const [attempt] = await attempts(made.id);
      assert.deepEqual([attempt.status_code, attempt.result, attempt.next_retry_at], [410, 'failed', null]);
      await createIntent(svc);
      clock.advance(60);
      await deliver();
      assert.equal(gone.received.length, 1, 'disabled: nothing sent');
      gone.reply = () => ({ status: 200 });
      await svc.api('POST', `/v1/webhook_endpoints/${made.id}`, { token: licence(), json: { disabled: false } });
      const s = await createIntent(svc);
      await deliver();
      assert.equal(gone.received.at(-1)!.event.data.object.id, s.paymentIntentId);
      await svc.api('DELETE', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
    } finally {
      await gone.close();
    }
  });

  test('rotate_secret: for 24 hours both secrets sign (two signatures), then only the new one', async () => {
    // A clock of its own, at the real time: standardwebhooks checks the timestamp against this machine's.
    const own = new ManualClock();
    const service = await startTestService({}, own);
    const rotating = await Receiver.start();
    try {
      const key = service.credentials.licenceKey;
      const made = (await service.api('POST', '/v1/webhook_endpoints', { token: key, json: { url: rotating.url, enabled_events: ['payment_intent.created'] } })).body;
      const rotated = await service.api('POST', `/v1/webhook_endpoints/${made.id}/rotate_secret`, { token: key });
      assert.equal(rotated.status, 200);
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, made.secret);
      const create = () => service.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: service.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'rotated' } });
      await create();
      await service.services.webhooks.deliverer.drain();
      const during = rotating.received.at(-1)!;
      assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
      const headers = { 'webhook-id': during.id, 'webhook-timestamp': String(during.headers['webhook-timestamp']), 'webhook-signature': String(during.headers['webhook-signature']) };
      for (const secret of [made.secret, rotated.body.secret]) {
        assert.equal((new StandardWebhook(secret).verify(during.body, headers) as { id: string }).id, during.id);
        assert.equal(verifyWebhook(during.body, during.headers, secret).id, during.id);
      }
      own.advance(24 * 3600 + 1);
      await create();
      await service.services.webhooks.deliverer.drain();
      const later = rotating.received.at(-1)!;
      assert.equal(String(later.headers['webhook-signature']).split(' ').length, 1);
      assert.throws(() => verifyWebhook(later.body, later.headers, made.secret, { now: () => own.now() }), /No signature matches/);
      assert.equal(verifyWebhook(later.body, later.headers, rotated.body.secret, { now: () => own.now() }).id, later.id);
    } finally {
      await service.close();
      await rotating.close();
    }
  });

  test('POST /v1/events/:id/retry sends one again now, as a manual attempt; bad ids are 404s naming their field', async () => {
    const again = await Receiver.start();
    try {
      const made = await endpoint(again.url, ['payment_intent.created']);
      await createIntent(svc);
      await deliver();
      const eventId = again.received[0].id;
      const retried = await svc.api('POST', `/v1/events/${eventId}/retry`, { token: licence(), json: { endpoint: made.id } });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.deepEqual({ ...retried.body, next_attempt_at: 0 }, { object: 'webhook_delivery', event: eventId, endpoint: made.id, status: 'pending', attempts: 1, next_attempt_at: 0 });
      await deliver();
      assert.deepEqual(again.received.map((r) => r.id), [eventId, eventId]);
      const [latest] = await attempts(made.id, `&event=${eventId}`);
      assert.deepEqual([latest.number, latest.manual, latest.result], [2, true, 'succeeded']);
      const other = await endpoint(again.url, ['payment_intent.cancelled']);
      const refused = await svc.api('POST', `/v1/events/${eventId}/retry`, { token: licence(), json: { endpoint: other.id } });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.param, 'endpoint');
      assert.equal((await svc.api('POST', `/v1/events/${eventId}/retry`, { token: licence(), json: { endpoint: 'we_nope' } })).body.error.param, 'endpoint');
      assert.equal((await svc.api('POST', `/v1/events/evt_nope/retry`, { token: licence(), json: { endpoint: made.id } })).status, 404);
      const stranger = await svc.services.merchants.create({ origins: ['http://stranger.test'] });
      assert.equal((await svc.api('POST', `/v1/events/${eventId}/retry`, { token: stranger.licenceKey, json: { endpoint: made.id } })).status, 404);
      for (const id of [made.id, other.id]) await svc.api('DELETE', `/v1/webhook_endpoints/${id}`, { token: licence() });
    } finally {
      await again.close();
    }
  });

  test('a slow receiver holds up only its own endpoint', async () => {
    // A service of its own whose deliveries never time out here: with the suite's 2 s, a busy machine
    // saw the first hanging attempts end before the fast receiver had all 20, and the next ones follow.
    const service = await startTestService({ webhookRetrySchedule: RETRIES, webhookTimeoutMs: scaled(600_000) }, new ManualClock());
    const slow = await Receiver.start();
    const fast = await Receiver.start();
    try {
      slow.reply = () => 'hang';
      const key = service.credentials.licenceKey;
      for (const url of [slow.url, fast.url]) assert.equal((await service.api('POST', '/v1/webhook_endpoints', { token: key, json: { url, enabled_events: ['payment_intent.created'] } })).status, 200);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await createIntent(service)).paymentIntentId);
      // The fast one has all 20 while every request to the slow one still hangs.
      await fast.until((r) => ids.every((id) => r.some((x) => x.event.data.object.id === id)));
      assert.ok(slow.received.length > 0, 'the slow endpoint was tried');
      assert.ok(slow.received.length <= 8 && slow.maxOpen <= 8, `at most 8 attempts in flight to one endpoint: ${slow.received.length} received, ${slow.maxOpen} open at once`);
      slow.reply = () => ({ status: 200 });
      slow.release(200);
      await service.services.webhooks.deliverer.drain();
      assert.equal(slow.delivered().size, 20, 'the slow endpoint has every event once released');
    } finally {
      await slow.close();
      await fast.close();
      await service.close();
    }
  });
});

describe('CPE_WEBHOOK_ALLOW_PRIVATE=0', () => {
  test('refuses loopback, private and link-local addresses, also when a name resolves to one', async (t) => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    const shared = await startTestService({ webhookAllowPrivate: false, webhookTimeoutMs: 2_000 });
    const target = await Receiver.start();
    try {
      const key = shared.credentials.licenceKey;
      for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://[fe80::1]/x', 'http://192.168.1.1/x']) {
        const r = await shared.api('POST', '/v1/webhook_endpoints', { token: key, json: { url, enabled_events: ['*'] } });
        assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.param, 'url');
        assert.match(r.body.error.message, /not allowed as a webhook receiver/);
      }
      if (!resolved || !refusal(resolved.address)) return t.skip(`${name} does not resolve to a private address here`);
      // The attack: a name that passes the check at create, and resolves to this machine.
      const port = new URL(target.url).port;
      const made = await shared.api('POST', '/v1/webhook_endpoints', { token: key, json: { url: `http://${name}:${port}/webhooks`, enabled_events: ['*'] } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      await shared.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: shared.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'ssrf' } });
      await shared.services.webhooks.deliverer.drain();
      assert.equal(target.received.length, 0, 'nothing reached the private address');
      const listed = await shared.api('GET', `/v1/webhook_endpoints/${made.body.id}/attempts`, { token: key });
      assert.match(listed.body.data[0].error, new RegExp(`address refused: ${name} resolves to ${resolved.address.replaceAll('.', '\\.')}`));
    } finally {
      await shared.close();
      await target.close();
    }
  });

  test('by default (test mode) a receiver on this machine is allowed', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const made = await endpoint(`http://localhost:${closed}/x`, ['payment_intent.created']);
    assert.equal(made.url, `http://localhost:${closed}/x`);
    await svc.api('DELETE', `/v1/webhook_endpoints/${made.id}`, { token: licence() });
  });
});
