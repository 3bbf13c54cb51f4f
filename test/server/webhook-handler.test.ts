import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { CpeClient, cpeWebhookHandler, verifyWebhook, WebhookVerificationError, type CpeEvent } from '../../client/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * The merchant's side (`cpe/server`): verifyWebhook and cpeWebhookHandler under Koa, Express and
 * node:http, receiving real deliveries of a real service; the webhook methods of CpeClient.
 */

let svc: TestService;
let client: CpeClient;
const servers: Server[] = [];
before(async () => {
  svc = await startTestService({ webhookRetrySchedule: [1000] });
  client = new CpeClient({ licenceKey: svc.credentials.licenceKey, baseUrl: svc.url });
});
after(async () => {
  for (const server of servers) server.closeAllConnections(), server.close();
  await svc.close();
});

const listen = async (server: Server, path: string) => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
};

/** A create, and the events it made once delivered. */
const createIntent = (identifier: string) =>
  client.createPaymentIntent({ merchantid: svc.credentials.merchantId, amount: 1500, currency: 'GBP', identifier });

/** Handlers that record what they got, and a promise per intent identifier for its created event. */
function recorder() {
  const got: CpeEvent[] = [];
  const waiting = new Map<string, (event: CpeEvent) => void>();
  return {
    got,
    on: {
      'payment_intent.created': (event: CpeEvent<'payment_intent.created'>) => {
        got.push(event);
        waiting.get(event.data.object.identifier)?.(event);
      },
    },
    next: (identifier: string) => new Promise<CpeEvent>((resolve) => waiting.set(identifier, resolve)),
  };
}

describe('cpeWebhookHandler', () => {
  for (const framework of ['node:http', 'Koa', 'Express'] as const) {
    test(`under ${framework}: verifies, calls the handler with the typed event once, skips a repeat`, async () => {
      const endpoint = await client.createWebhookEndpoint({ url: 'https://placeholder.example/', enabled_events: ['payment_intent.created'] });
      const seen = recorder();
      const handler = cpeWebhookHandler({ secret: endpoint.secret, on: seen.on });
      let url: string;
      if (framework === 'node:http') url = await listen(createServer(handler), '/');
      else if (framework === 'Koa') {
        const app = new Koa();
        const router = new Router();
        router.post('/hooks', handler);
        app.use(router.routes());
        url = await listen(createServer(app.callback()), '/hooks');
      } else {
        const app = express();
        app.post('/hooks', handler);
        url = await listen(createServer(app), '/hooks');
      }
      await client.updateWebhookEndpoint(endpoint.id, { url });
      const arrived = seen.next(`${framework}-1`);
      await createIntent(`${framework}-1`);
      const event = await arrived;
      assert.equal(event.type, 'payment_intent.created');
      assert.deepEqual(event, await client.retrieveEvent(event.id));
      // The same event again (a manual resend, once the first attempt is recorded): answered 200, the handler not called again.
      await svc.services.webhooks.deliverer.drain();
      await client.retryEvent(event.id, { endpoint: endpoint.id });
      await svc.services.webhooks.deliverer.drain();
      const attempts = await client.listWebhookAttempts(endpoint.id, { event: event.id });
      assert.deepEqual(attempts.data.map((a) => [a.status_code, a.manual]), [[200, true], [200, false]]);
      assert.match(attempts.data[0].response_body!, /"duplicate":true/);
      assert.equal(seen.got.filter((e) => e.id === event.id).length, 1);
      await client.deleteWebhookEndpoint(endpoint.id);
    });
  }

  test('a handler that throws is a 500: the event comes again, and is handled then', async () => {
    let calls = 0;
    const endpoint = await client.createWebhookEndpoint({ url: 'https://placeholder.example/', enabled_events: ['payment_intent.created'] });
    let resolve!: (event: CpeEvent) => void;
    const handled = new Promise<CpeEvent>((done) => (resolve = done));
    const handler = cpeWebhookHandler({
      secret: endpoint.secret,
      on: {
        'payment_intent.created': (event) => {
          if (++calls === 1) throw new Error('the database is down');
          resolve(event);
        },
      },
    });
    await client.updateWebhookEndpoint(endpoint.id, { url: await listen(createServer(handler), '/') });
    const intent = await createIntent('throws');
    await svc.services.webhooks.deliverer.drain();
    const first = await client.listWebhookAttempts(endpoint.id);
    assert.equal(first.data[0].status_code, 500);
    assert.match(first.data[0].response_body!, /handler_failed/);
    await client.retryEvent(first.data[0].event, { endpoint: endpoint.id });
    assert.equal((await handled).data.object.id, intent.paymentIntentId);
    await client.deleteWebhookEndpoint(endpoint.id);
  });

  test('a bad signature, missing headers, another method: refused, nothing runs; a body parser before it: a clear 500', async () => {
    let ran = false;
    const secret = (await client.createWebhookEndpoint({ url: 'https://placeholder.example/', enabled_events: ['*'] })).secret;
    const handler = cpeWebhookHandler({ secret, on: { 'payment_intent.created': () => void (ran = true) } });
    const url = await listen(createServer(handler), '/');
    const body = JSON.stringify({ id: 'evt_x', object: 'event', type: 'payment_intent.created' });
    // One moment for the signature and its header (a second boundary between the two would change it).
    const seconds = Math.floor(Date.now() / 1000);
    const signed = new StandardWebhook(secret).sign('evt_x', new Date(seconds * 1000), body);
    const post = (headers: Record<string, string>, method = 'POST') => fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: method === 'POST' ? body : undefined });
    const bad = await post({ 'webhook-id': 'evt_x', 'webhook-timestamp': String(seconds), 'webhook-signature': signed.replace(/.$/, 'A') });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).error.code, 'invalid_signature');
    const missing = await post({});
    assert.equal(((await missing.json()) as any).error.code, 'missing_headers');
    assert.equal((await post({}, 'GET')).status, 405);
    assert.equal(ran, false);
    // Signed by standardwebhooks' own signer: accepted.
    const good = await post({ 'webhook-id': 'evt_x', 'webhook-timestamp': String(seconds), 'webhook-signature': signed });
    assert.equal(good.status, 200);
    assert.equal(ran, true);

    const parsed = express();
    parsed.use(express.json());
    parsed.post('/hooks', cpeWebhookHandler({ secret, on: {} }));
    // The app's error handler gets the handler's error (next(error)), as any other.
    parsed.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).send(error.message));
    const wrong = await fetch(await listen(createServer(parsed), '/hooks'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(wrong.status, 500);
    assert.match(await wrong.text(), /raw body|express\.raw/);
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"evt_1","object":"event","type":"contact.created"}';
  const now = 1_800_000_000;
  const headersAt = (at: number) => ({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': new StandardWebhook(secret).sign('evt_1', new Date(at * 1000), body) });

  test('accepts what standardwebhooks signs, within five minutes either way, with several secrets', () => {
    assert.equal(verifyWebhook(body, headersAt(now), secret, { now: () => now }).id, 'evt_1');
    assert.equal(verifyWebhook(Buffer.from(body), new Headers(headersAt(now - 299)), ['whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldA==', secret], { now: () => now }).type, 'contact.created');
  });

  for (const [what, headers, code] of [
    ['a timestamp six minutes old', headersAt(now - 360), 'timestamp_too_old'],
    ['a timestamp six minutes ahead', headersAt(now + 360), 'timestamp_too_new'],
    ['no webhook-signature', { 'webhook-id': 'evt_1', 'webhook-timestamp': String(now) }, 'missing_headers'],
    ['a timestamp that is not a number', { ...headersAt(now), 'webhook-timestamp': 'yesterday' }, 'invalid_timestamp'],
  ] as const)
    test(`refuses ${what}: ${code}`, () => {
      assert.throws(
        () => verifyWebhook(body, headers, secret, { now: () => now }),
        (error: any) => error instanceof WebhookVerificationError && error.code === code,
      );
    });

  test('refuses a body changed by a space, and another secret', () => {
    assert.throws(() => verifyWebhook(`${body} `, headersAt(now), secret, { now: () => now }), /No signature matches/);
    assert.throws(() => verifyWebhook(body, headersAt(now), 'whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldA==', { now: () => now }), /No signature matches/);
    assert.throws(() => verifyWebhook(body, headersAt(now), 'pk_test_abc', { now: () => now }), (error: any) => error.code === 'invalid_secret');
  });
});

describe("CpeClient's endpoint methods", () => {
  test('list, retrieve, rotate_secret and a 404 for another id: the API\'s shapes, the secret only where it is shown', async () => {
    const made = await client.createWebhookEndpoint({ url: 'https://placeholder.example/client', enabled_events: ['payment_intent.*'], description: 'client' });
    assert.match(made.secret, /^whsec_/);
    const one = await client.retrieveWebhookEndpoint(made.id);
    assert.deepEqual({ id: one.id, url: one.url, events: one.enabled_events, status: one.status }, { id: made.id, url: made.url, events: ['payment_intent.*'], status: 'enabled' });
    assert.equal('secret' in one, false, 'the secret is shown only at create and rotation');
    const listed = await client.listWebhookEndpoints({ limit: 100 });
    assert.ok(listed.data.some((e) => e.id === made.id));
    assert.ok(listed.data.every((e) => !('secret' in e)));
    const rotated = await client.rotateWebhookEndpointSecret(made.id);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, made.secret);
    await assert.rejects(client.retrieveWebhookEndpoint('we_doesnotexist'), (error: any) => error.status === 404 && error.code === 'resource_missing');
    await client.deleteWebhookEndpoint(made.id);
  });
});
