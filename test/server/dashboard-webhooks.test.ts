import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboard, signIn, type DashboardLogin } from '../helpers/dashboard.ts';
import { Receiver } from '../helpers/receiver.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { backend, CARDS, createIntent, tokenOf } from './payments-fixtures.ts';

/**
 * The dashboard's Webhooks pages on the service: endpoints added, edited, disabled, their secret
 * rolled and deleted through the dashboard's API (the same services as /v1/webhook_endpoints), a
 * failed attempt retried once the receiver is fixed, Send test event, Home's count of failing
 * deliveries; another merchant's endpoint is a 404; no signing secret in the request log. Deliveries
 * are awaited with the deliverer's drain (no wait on the clock). Runs on both engines.
 */
describe('the dashboard\'s webhooks', () => {
  let svc: TestService;
  let login: DashboardLogin;
  let other: DashboardLogin;
  let receiver: Receiver;
  before(async () => {
    svc = await startTestService({ webhookRetrySchedule: [60_000] });
    receiver = await Receiver.start();
    login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
    other = await signIn(svc, { licence_key: (await svc.services.merchants.create({ origins: [] })).licenceKey });
  });
  after(async () => {
    await svc?.close();
    await receiver?.close();
  });

  const deliver = () => svc.services.webhooks.deliverer.drain();
  const attempts = async (id: string) => {
    const answer = await dashboard(svc, 'GET', `/webhook_endpoints/${id}/attempts?limit=100`, { login });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.data as { event: string; event_type: string; status_code: number | null; result: string; manual: boolean }[];
  };
  const failing = async () => (await dashboard(svc, 'GET', '/home', { login })).body.attention.failed_webhooks as number;

  async function pay(): Promise<string> {
    const session = await createIntent(svc);
    await backend(svc, 'attach', { payment_intent_id: session.paymentIntentId, token: await tokenOf(svc, session, CARDS.visa) });
    await backend(svc, 'confirm', { payment_intent_id: session.paymentIntentId });
    await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    return session.paymentIntentId;
  }

  it('adds an endpoint (its secret shown once), fails a delivery, retries it once the receiver is fixed; Home counts it failing until then', async () => {
    receiver.reply = () => ({ status: 500, body: 'receiver is down' });
    const made = await dashboard(svc, 'POST', '/webhook_endpoints', { login, json: { url: receiver.url, enabled_events: ['payment_intent.succeeded'] } });
    assert.equal(made.status, 200, made.text);
    assert.match(made.body.secret, /^whsec_/);
    assert.equal(made.headers.get('cache-control'), 'no-store');
    const listed = await dashboard(svc, 'GET', '/webhook_endpoints?limit=100', { login });
    assert.deepEqual(listed.body.data.map((e: { id: string }) => e.id), [made.body.id]);
    assert.equal(listed.body.data[0].secret, undefined, 'the secret is shown only when made');
    assert.equal(await failing(), 0);

    const intent = await pay();
    await deliver();
    const [failed] = await attempts(made.body.id);
    assert.deepEqual([failed!.event_type, failed!.status_code, failed!.result], ['payment_intent.succeeded', 500, 'failed']);
    assert.equal(receiver.received[0]!.event.data.object.id, intent);
    assert.equal(await failing(), 1, 'Home: one delivery failing');

    receiver.reply = () => ({ status: 200, body: 'ok' });
    const retried = await dashboard(svc, 'POST', `/events/${failed!.event}/retry`, { login, json: { endpoint: made.body.id } });
    assert.equal(retried.status, 200, retried.text);
    await deliver();
    const [latest] = await attempts(made.body.id);
    assert.deepEqual([latest!.event, latest!.status_code, latest!.result, latest!.manual], [failed!.event, 200, 'succeeded', true]);
    assert.equal(receiver.received.at(-1)!.id, failed!.event, 'the same event, again');
    assert.equal(await failing(), 0, 'Home: nothing failing once the retry got through');

    // The request log keeps the dashboard's requests, never the secret.
    const log = await dashboard(svc, 'GET', '/requests?limit=100', { login });
    const create = log.body.data.find((r: { method: string; path: string }) => r.method === 'POST' && r.path === '/dashboard/api/webhook_endpoints');
    assert.equal(create.response_body.secret, '[redacted]');
    assert.ok(!log.text.includes(made.body.secret.slice(6)), 'the signing secret is in the request log');
  });

  it('Send test event: the newest event of the type to this endpoint only; none of the type yet is a 400 naming the type', async () => {
    receiver.reply = () => ({ status: 200 });
    const made = (await dashboard(svc, 'POST', '/webhook_endpoints', { login, json: { url: receiver.url, enabled_events: ['*'] } })).body;
    const bystander = (await dashboard(svc, 'POST', '/webhook_endpoints', { login, json: { url: `${receiver.url}/other`, enabled_events: ['*'] } })).body;
    const [newest] = (await svc.api('GET', '/v1/events?limit=1&type=payment_intent.succeeded', { token: svc.credentials.licenceKey })).body.data;
    const before = receiver.received.length;
    const sent = await dashboard(svc, 'POST', `/webhook_endpoints/${made.id}/test`, { login, json: { type: 'payment_intent.succeeded' } });
    assert.equal(sent.status, 200, sent.text);
    await deliver();
    assert.deepEqual(receiver.received.slice(before).map((r) => r.id), [newest.id], 'sent once, to this endpoint only');
    assert.deepEqual((await attempts(made.id)).map((a) => [a.event, a.result, a.manual]), [[newest.id, 'succeeded', true]]);
    assert.deepEqual(await attempts(bystander.id), []);

    const none = await dashboard(svc, 'POST', `/webhook_endpoints/${made.id}/test`, { login, json: { type: 'refund.failed' } });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.param, 'type');
    assert.match(none.body.error.message, /no refund\.failed event yet.*npm run -s trigger -- refund\.failed/);
    const unknown = await dashboard(svc, 'POST', `/webhook_endpoints/${made.id}/test`, { login, json: { type: 'contact.created' } });
    assert.equal(unknown.status, 400, 'a messaging event is not a merchant\'s');
    assert.equal(unknown.body.error.param, 'type');
  });

  it('edits the events, disables and enables, rolls the secret (shown once), deletes; another merchant\'s endpoint is a 404', async () => {
    const made = (await dashboard(svc, 'POST', '/webhook_endpoints', { login, json: { url: 'https://shop.example/hooks', enabled_events: ['*'] } })).body;
    const path = `/webhook_endpoints/${made.id}`;
    const edited = await dashboard(svc, 'POST', path, { login, json: { enabled_events: ['refund.*'] } });
    assert.deepEqual(edited.body.enabled_events, ['refund.*']);
    assert.equal((await dashboard(svc, 'POST', path, { login, json: { disabled: true } })).body.status, 'disabled');
    assert.equal((await dashboard(svc, 'POST', path, { login, json: { disabled: false } })).body.status, 'enabled');
    const bad = await dashboard(svc, 'POST', path, { login, json: { url: 'ftp://shop.example' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'url');

    const rolled = await dashboard(svc, 'POST', `${path}/rotate_secret`, { login, json: {} });
    assert.equal(rolled.status, 200, rolled.text);
    assert.match(rolled.body.secret, /^whsec_/);
    assert.notEqual(rolled.body.secret, made.secret);
    assert.equal((await dashboard(svc, 'GET', path, { login })).body.secret, undefined);

    for (const [method, suffix] of [['GET', ''], ['GET', '/attempts'], ['POST', ''], ['DELETE', ''], ['POST', '/rotate_secret'], ['POST', '/test']] as const) {
      const answer = await dashboard(svc, method, `${path}${suffix}`, { login: other, ...(method === 'POST' ? { json: suffix === '/test' ? { type: 'refund.created' } : {} } : {}) });
      assert.equal(answer.status, 404, `${method} ${suffix}: ${answer.text}`);
    }
    const retryOthers = await dashboard(svc, 'POST', `/events/evt_unknown/retry`, { login: other, json: { endpoint: made.id } });
    assert.equal(retryOthers.status, 404);

    const deleted = await dashboard(svc, 'DELETE', path, { login });
    assert.deepEqual(deleted.body, { id: made.id, object: 'webhook_endpoint', deleted: true });
    assert.equal((await dashboard(svc, 'GET', path, { login })).status, 404);
  });

  it('an action without the CSRF token changes nothing', async () => {
    const answer = await dashboard(svc, 'POST', '/webhook_endpoints', { login, headers: { 'X-CSRF-Token': '' }, json: { url: 'https://shop.example/x', enabled_events: ['*'] } });
    assert.equal(answer.status, 403);
    const listed = await dashboard(svc, 'GET', '/webhook_endpoints?limit=100', { login });
    assert.ok(!listed.body.data.some((e: { url: string }) => e.url === 'https://shop.example/x'));
  });
});
