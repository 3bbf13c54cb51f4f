import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { createServer as netServer, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Koa from 'koa';
import { CpeApiError, CpeClient, cpeMiddleware, cpeNodeHandler, toSession } from '../../client/index.ts';
import { retryDelayMs } from '../../client/transport.ts';
import { ROUTES } from '../../api/routes.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, createBody, tokenOf, type Session } from './payments-fixtures.ts';

let svc: TestService;
let client: CpeClient;
before(async () => {
  svc = await startTestService();
  client = new CpeClient({ licenceKey: svc.credentials.licenceKey, baseUrl: svc.url });
});
after(() => svc.close());

const sessionOf = (created: { paymentIntentId: string; session_token: string; opaque_key: string }): Session => ({
  ...created,
  headers: { 'X-CPE-Public-Key': svc.credentials.publicKey, 'X-CPE-Session-Token': created.session_token },
});

describe('CpeClient', () => {
  test('runs a whole payment and verifies it, typed end to end', async () => {
    const created = await client.createPaymentIntent(createBody(svc) as Parameters<CpeClient['createPaymentIntent']>[0]);
    assert.equal(created.status, 'open');
    const token = await tokenOf(svc, sessionOf(created), CARDS.mastercard);
    const id = created.paymentIntentId;
    assert.equal((await client.attach({ payment_intent_id: id, token })).status, 'requires_customer_confirmation');
    assert.equal((await client.confirm({ payment_intent_id: id })).status, 'requires_authorisation');
    const authorised = await client.authorise({ payment_intent_id: id });
    assert.equal(authorised.authorised, true);
    assert.equal(authorised.status, 'succeeded');
    const verified = await client.verify({ payment_intent_id: id, unmask_fields: ['email'] });
    assert.equal(verified.status, 'success');
    assert.equal(verified.auth?.email, 'ada@example.test');
    assert.equal(verified.auth?.name, '[redacted]');
    assert.equal((await client.retrievePaymentIntent(id)).status, 'succeeded');
  });

  test('deferred capture and cancel', async () => {
    const created = await client.createPaymentIntent({ ...(createBody(svc) as any), autoCapture: false });
    const token = await tokenOf(svc, sessionOf(created), CARDS.visa);
    const id = created.paymentIntentId;
    await client.attach({ payment_intent_id: id, token });
    await client.confirm({ payment_intent_id: id });
    assert.equal((await client.authorise({ payment_intent_id: id })).status, 'requires_capture');
    const captured = await client.capture({ payment_intent_id: id, amount: 1000 });
    assert.equal(captured.amount_captured, 1000);
    const other = await client.createPaymentIntent(createBody(svc) as any);
    assert.equal((await client.cancel({ payment_intent_id: other.paymentIntentId })).status, 'cancelled');
  });

  test('errors are CpeApiError with the fields of the error object', async () => {
    await assert.rejects(
      () => client.createPaymentIntent({ ...(createBody(svc) as any), currency: 'XXQ' }),
      (error: unknown) => error instanceof CpeApiError && error.status === 400 && error.param === 'currency' && error.type === 'invalid_request_error',
    );
    await assert.rejects(() => client.retrievePaymentIntent('pi_missing'), (error: unknown) => error instanceof CpeApiError && error.status === 404);
  });

  test('an idempotency key makes a repeated create return the same intent', async () => {
    const a = await client.createPaymentIntent(createBody(svc) as any, { idempotencyKey: 'order-42' });
    const b = await client.createPaymentIntent(createBody(svc) as any, { idempotencyKey: 'order-42' });
    assert.equal(b.paymentIntentId, a.paymentIntentId);
    await assert.rejects(
      () => client.createPaymentIntent({ ...(createBody(svc) as any), amount: 1 }, { idempotencyKey: 'order-42' }),
      (error: unknown) => error instanceof CpeApiError && error.status === 409,
    );
  });

  test('refunds, the intent list with filters, and update: typed from the table, queries in brackets as the Stripe API reads them', async () => {
    const created = await client.createPaymentIntent({ ...(createBody(svc) as any), amount: 1500, metadata: { order: 'client-1', channel: 'api' } });
    const id = created.paymentIntentId;
    const token = await tokenOf(svc, sessionOf(created), CARDS.visa);
    await client.attach({ payment_intent_id: id, token });
    await client.confirm({ payment_intent_id: id });
    await client.authorise({ payment_intent_id: id });
    const refund = await client.createRefund({ payment_intent: id, amount: 500, metadata: { why: 'broken nib' } });
    assert.deepEqual([refund.status, refund.amount, refund.metadata], ['succeeded', 500, { why: 'broken nib' }]);
    assert.deepEqual(await client.retrieveRefund(refund.id), refund);
    assert.deepEqual((await client.listRefunds({ payment_intent: id })).data.map((r) => r.id), [refund.id]);
    const listed = await client.listPaymentIntents({ status: ['succeeded', 'requires_capture'], metadata: { order: 'client-1' }, created: { gte: 0 }, limit: 5 });
    assert.deepEqual(listed.data.map((i) => [i.id, i.amount_refunded]), [[id, 500]]);
    const updated = await client.updatePaymentIntent(id, { metadata: { channel: '' }, description: 'Client test' });
    assert.deepEqual([updated.metadata, updated.description], [{ order: 'client-1' }, 'Client test']);
    await assert.rejects(() => client.createRefund({ payment_intent: id, amount: 1001 }), (e: unknown) => e instanceof CpeApiError && e.code === 'amount_too_large' && e.param === 'amount');
  });

  test("every licence-key operation of the table has a method (the table's name, or without PaymentIntent)", () => {
    const methods = new Set(Object.getOwnPropertyNames(CpeClient.prototype));
    const missing = Object.entries(ROUTES)
      .filter(([, route]) => route.auth === 'licenceKey')
      .map(([name]) => name)
      .filter((name) => !methods.has(name) && !methods.has(name.replace('PaymentIntent', '')));
    assert.deepEqual(missing, []);
  });

  test('refuses a public key, and a service that never answers is an error, not a hang', async () => {
    assert.throws(() => new CpeClient({ licenceKey: svc.credentials.publicKey }), /licence key/);
    // It takes the connection and says nothing, ever: only the client's timeout can end the call.
    const silent = netServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const offline = new CpeClient({ licenceKey: svc.credentials.licenceKey, baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200, maxRetries: 0 });
      await assert.rejects(() => offline.retrievePaymentIntent('pi_x'));
    } finally {
      silent.close();
    }
  });
});

describe('CpeClient retries, against a scripted service', () => {
  /** A service that answers each request with the next scripted answer, recording what it received. */
  async function scripted(answers: { status: number; body: string; headers?: Record<string, string> }[]) {
    const seen: { method: string; key: string | undefined }[] = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method!, key: req.headers['x-idempotency-key'] as string | undefined });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      res.writeHead(answer.status, { 'content-type': answer.body.startsWith('{') ? 'application/json' : 'text/html', ...answer.headers });
      res.end(answer.body);
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const delays: number[] = [];
    const client = new CpeClient({
      licenceKey: 'sk_test_scripted',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      sleep: async (ms) => void delays.push(ms),
    });
    return { client, seen, delays, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const ok = { status: 200, body: JSON.stringify({ paymentIntentId: 'pi_1', opaque_key: 'o', session_token: 's', status: 'open' }) };
  const input = { merchantid: 1, amount: 1, currency: 'GBP', identifier: 'x' };

  test('5xx answers are retried with the same idempotency key and growing, jittered delays', async () => {
    const s = await scripted([{ status: 503, body: '{"error":{"type":"api_error","code":"x","message":"busy","param":null}}' }, { status: 500, body: '{}' }, ok]);
    try {
      assert.equal((await s.client.createPaymentIntent(input)).paymentIntentId, 'pi_1');
      assert.equal(s.seen.length, 3);
      assert.ok(s.seen[0].key && s.seen.every((r) => r.key === s.seen[0].key), JSON.stringify(s.seen));
      assert.equal(s.delays.length, 2);
      assert.equal(s.delays[0], 500);
      assert.ok(s.delays[1] >= 500 && s.delays[1] <= 1000, String(s.delays[1]));
    } finally {
      await s.close();
    }
  });

  test('a 429 waits at least its Retry-After', async () => {
    const s = await scripted([{ status: 429, body: '{"error":{"type":"rate_limit_error","code":"rate_limited","message":"slow","param":null}}', headers: { 'retry-after': '3' } }, ok]);
    try {
      await s.client.createPaymentIntent(input);
      assert.deepEqual(s.delays, [3000]);
    } finally {
      await s.close();
    }
  });

  test('a body that is not JSON is a CpeApiError with the status, not a SyntaxError', async () => {
    const s = await scripted([{ status: 502, body: '<html>Bad gateway</html>' }]);
    try {
      await assert.rejects(() => s.client.createPaymentIntent(input), (error: unknown) => error instanceof CpeApiError && error.status === 502 && error.code === 'invalid_response');
      assert.equal(s.seen.length, 3, 'retried first, as any 5xx');
    } finally {
      await s.close();
    }
    const html = await scripted([{ status: 200, body: '<html>captive portal</html>' }]);
    try {
      await assert.rejects(() => html.client.retrievePaymentIntent('pi_1'), (error: unknown) => error instanceof CpeApiError && error.status === 200);
    } finally {
      await html.close();
    }
  });

  test('the delay schedule: exponential from 500 ms, at most 5 s, jitter within half, Retry-After first (at most 60 s)', () => {
    const schedule = { initialMs: 500, maxMs: 5_000 };
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, undefined, schedule, () => 1)), [500, 1000, 2000, 4000, 5000]);
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, undefined, schedule, () => 0)), [500, 500, 1000, 2000, 2500]);
    assert.equal(retryDelayMs(1, 7_000, schedule, () => 1), 7_000);
    assert.equal(retryDelayMs(1, 600_000, schedule, () => 1), 60_000);
  });
});

describe('cpeMiddleware: a merchant backend forwarding the SDK', () => {
  let merchant: Server;
  let merchantUrl: string;
  const verified: string[] = [];
  const denied = new Set<string>();
  const created: string[] = [];

  before(async () => {
    const app = new Koa();
    const cpe = cpeMiddleware({
      client,
      allowIntent: (_ctx, id) => !denied.has(id ?? ''),
      onCreated: (session) => void created.push(session.paymentIntentId),
      onVerified: (result) => {
        if (result.status === 'success') verified.push(result.auth!.paymentIntentId);
      },
      // The backend prices the basket itself: the browser never says the amount.
      exchange: (body) => ({ ...(createBody(svc) as any), amount: 250 * Number((body as { quantity?: number }).quantity ?? 1), identifier: 'basket-1' }),
    });
    app.use(cpe.router('/api/cpe').routes());
    merchant = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => merchant.once('listening', resolve));
    merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
  });
  after(() => merchant.close());

  const post = async (path: string, json: unknown, key = 'flow-1') => {
    const response = await fetch(`${merchantUrl}/api/cpe${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-idempotency-key': key },
      body: JSON.stringify(json),
    });
    return { status: response.status, body: await response.json() };
  };

  test('exchange, attach, confirm, authorise and verifyAuth: the answers of the service as they are', async () => {
    const session = (await post('/exchange', { quantity: 3, context: { amount: 750, currency: 'GBP', identifier: 'basket-1' } }, 'exchange-1')).body;
    assert.deepEqual(Object.keys(session).sort(), ['opaqueKey', 'paymentIntentId', 'sessionToken']);
    const intent = await client.retrievePaymentIntent(session.paymentIntentId);
    assert.equal(intent.amount, 750);
    assert.deepEqual(created, [session.paymentIntentId], 'the merchant was told of the intent it created, to tie it to the shopper');
    const token = await tokenOf(svc, sessionOf({ paymentIntentId: session.paymentIntentId, session_token: session.sessionToken, opaque_key: session.opaqueKey }), CARDS.visa);

    const id = session.paymentIntentId;
    const key = `flow-${id}`;
    const attach = await post('/attach', { payment_intent_id: id, token }, key);
    assert.equal(attach.body.status, 'requires_customer_confirmation');
    assert.deepEqual((await post('/attach', { payment_intent_id: id, token }, key)).body, attach.body, 'a retried attach replays, not re-runs');
    assert.equal((await post('/confirm', { payment_intent_id: id }, key)).body.status, 'requires_authorisation');
    const authorise = await post('/authorise', { payment_intent_id: id }, key);
    assert.equal(authorise.body.authorised, true);
    const verify = await post('/verify-auth', { payment_intent_id: id }, key);
    assert.deepEqual(verify.body, { status: 'success', intent_status: 'succeeded', verified: true });
    assert.ok(verified.includes(id), 'the merchant hook saw the verified payment');
  });

  test("the service's errors pass through; intents the merchant refuses are 404", async () => {
    const bad = await post('/attach', { payment_intent_id: 'pi_nothing', token: 'tok_nothing' });
    assert.equal(bad.status, 404);
    assert.equal(bad.body.error.type, 'invalid_request_error');
    const created = await client.createPaymentIntent(createBody(svc) as any);
    denied.add(created.paymentIntentId);
    const refused = await post('/confirm', { payment_intent_id: created.paymentIntentId });
    assert.equal(refused.status, 404);
    assert.equal((await client.retrievePaymentIntent(created.paymentIntentId)).status, 'open', 'nothing was forwarded');
  });

  test('without allowIntent every intent is refused as absent, and nothing is forwarded', async () => {
    const app = new Koa();
    app.use(cpeMiddleware({ client } as unknown as Parameters<typeof cpeMiddleware>[0]).router('/api/cpe').routes());
    const bare = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    try {
      const created = await client.createPaymentIntent(createBody(svc) as any);
      const response = await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/cpe/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payment_intent_id: created.paymentIntentId }),
      });
      assert.equal(response.status, 404);
      assert.equal((await response.json()).error.code, 'resource_missing');
      assert.equal((await client.retrievePaymentIntent(created.paymentIntentId)).status, 'open');
    } finally {
      bare.close();
    }
  });

  test('toSession maps the create result to the browser shape', () => {
    assert.deepEqual(toSession({ paymentIntentId: 'pi_1', session_token: 's', opaque_key: 'o' }), { paymentIntentId: 'pi_1', sessionToken: 's', opaqueKey: 'o' });
  });
});

describe('cpeNodeHandler: the same routes as plain (req, res), for Express or any framework', () => {
  let server: Server;
  let base: string;
  const denied = new Set<string>();
  const seen: string[] = [];

  before(async () => {
    const handler = cpeNodeHandler({
      client,
      prefix: '/api/cpe',
      allowIntent: (req, id) => (seen.push(`${req.method} ${req.url}`), !denied.has(id ?? '')),
      exchange: () => ({ ...(createBody(svc) as any), amount: 990, identifier: 'node-basket' }),
    });
    server = createServer((req, res) => {
      // An Express-style body parser before it: the handler takes req.body as it is.
      if (req.url === '/parsed/api/cpe/confirm') {
        (req as { body?: unknown }).body = { payment_intent_id: 'pi_parsed' };
        req.url = '/api/cpe/confirm';
      }
      void handler(req, res, () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('the rest of the app');
      });
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const post = async (path: string, body: string, type = 'application/json', key = 'node-1') => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type, 'x-idempotency-key': key }, body });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };

  test('exchange, attach, confirm, authorise and verify-auth: the answers of the service as they are', async () => {
    const session = (await post('/api/cpe/exchange', JSON.stringify({ context: { amount: 990, currency: 'GBP' } }), 'application/json', 'node-exchange')).body;
    assert.deepEqual(Object.keys(session).sort(), ['opaqueKey', 'paymentIntentId', 'sessionToken']);
    const id = session.paymentIntentId;
    const token = await tokenOf(svc, sessionOf({ paymentIntentId: id, session_token: session.sessionToken, opaque_key: session.opaqueKey }), CARDS.visa);
    const key = `node-${id}`;
    const attach = await post('/api/cpe/attach', JSON.stringify({ payment_intent_id: id, token }), 'application/json', key);
    assert.equal(attach.status, 200);
    assert.match(attach.type!, /^application\/json/);
    assert.equal(attach.body.status, 'requires_customer_confirmation');
    assert.equal((await post('/api/cpe/confirm', JSON.stringify({ payment_intent_id: id }), 'application/json', key)).body.status, 'requires_authorisation');
    assert.equal((await post('/api/cpe/authorise', JSON.stringify({ payment_intent_id: id }), 'application/json', key)).body.authorised, true);
    assert.deepEqual((await post('/api/cpe/verify-auth', JSON.stringify({ payment_intent_id: id }), 'application/json', key)).body, { status: 'success', intent_status: 'succeeded', verified: true });
    assert.ok(seen.includes('POST /api/cpe/attach'), 'allowIntent got the request');
  });

  test('refused intents are 404 and nothing is forwarded; a parsed body is used; other paths go on; bad bodies say why', async () => {
    const created = await client.createPaymentIntent(createBody(svc) as any);
    denied.add(created.paymentIntentId);
    const refused = await post('/api/cpe/confirm', JSON.stringify({ payment_intent_id: created.paymentIntentId }));
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error.code, 'resource_missing');
    assert.equal((await client.retrievePaymentIntent(created.paymentIntentId)).status, 'open');
    const parsed = await post('/parsed/api/cpe/confirm', 'not read');
    assert.equal(parsed.status, 404);
    assert.match(parsed.body.error.message, /pi_parsed/);
    assert.equal(await (await fetch(`${base}/shop/basket`)).text(), 'the rest of the app');
    assert.equal((await fetch(`${base}/api/cpe/attach`)).status, 405);
    assert.equal((await post('/api/cpe/attach', 'payment_intent_id=pi', 'application/x-www-form-urlencoded')).status, 415);
    assert.equal((await post('/api/cpe/attach', '{"payment_intent_id":')).body.error.code, 'body_invalid');
    assert.equal((await post('/api/cpe/attach', JSON.stringify({ pad: 'x'.repeat(70_000) }))).status, 413);
  });

  test("a name every object has (/constructor, /toString) is no route: it goes on, as any other path", async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const response = await fetch(`${base}/api/cpe/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.deepEqual([response.status, await response.text()], [200, 'the rest of the app'], name);
    }
  });
});
