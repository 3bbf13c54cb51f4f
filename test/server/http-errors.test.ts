import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createApp, createServices } from '../../server/app.ts';
import { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { ensureSeeded } from '../../server/seed.ts';
import { only } from '../helpers/rate-limits.ts';
import { apiClient, startTestService, testConfig, type TestService } from '../helpers/service.ts';

let svc: TestService;
let token: string;
before(async () => {
  svc = await startTestService();
  token = svc.credentials.accessToken;
});
after(() => svc.close());

describe('authentication', () => {
  for (const [name, header] of [
    ['no header', undefined],
    ['a wrong token', 'Bearer cpe_at_wrong'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a licence key', 'LICENCE'],
  ] as const) {
    test(`${name}: 401 with WWW-Authenticate`, async () => {
      const value = header === 'LICENCE' ? `Bearer ${svc.credentials.licenceKey}` : header;
      const { status, body, headers } = await svc.api('GET', '/v1/contacts', { headers: value ? { authorization: value } : {} });
      assert.equal(status, 401);
      assert.equal(body.error.type, 'authentication_error');
      assert.equal(headers.get('www-authenticate'), 'Bearer');
    });
  }
});

describe('request errors', () => {
  test('unknown route: 404 error object', async () => {
    const { status, body } = await svc.api('GET', '/v1/nothing', { token });
    assert.equal(status, 404);
    assert.equal(body.error.code, 'route_missing');
  });

  test('wrong method: 405 with Allow', async () => {
    const { status, body, headers } = await svc.api('PATCH', '/v1/contacts', { token, json: {} });
    assert.equal(status, 405);
    assert.equal(body.error.code, 'method_not_allowed');
    assert.match(headers.get('allow')!, /POST/);
  });

  test('oversized body: 413, nothing created', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, json: { username: 'big', phone_number: '+441234567', pad: 'x'.repeat(200_000) } });
    assert.equal(status, 413);
    assert.equal(body.error.code, 'request_too_large');
    assert.equal((await svc.api('GET', '/v1/contacts', { token })).body.data.length, 0);
  });

  test('unsupported media type: 415', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, raw: '<x/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(status, 415);
    assert.match(body.error.message, /application\/json/);
  });

  test('malformed JSON: 400', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, raw: '{"username":', headers: { 'content-type': 'application/json' } });
    assert.equal(status, 400);
    assert.equal(body.error.type, 'invalid_request_error');
  });

  test('a JSON array or string body: 400', async () => {
    for (const raw of ['[1,2]', '"x"']) {
      const { status } = await svc.api('POST', '/v1/contacts', { token, raw, headers: { 'content-type': 'application/json' } });
      assert.equal(status, 400);
    }
  });

  test('deeply nested form fields: 400 naming the field, not a crash', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, raw: 'username[a][b][c][d][e][f]=1&phone_number=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(status, 400);
    assert.ok(body.error.param);
  });

  test('no input ever produces a 5xx', async () => {
    const { conversation_id } = (await svc.api('POST', '/v1/contacts', { token, form: { username: 'fuzz', phone_number: '+441234567' } })).body;
    const routes: [string, string][] = [
      ['POST', '/v1/contacts'],
      ['PUT', `/v1/contacts/ctc_x`],
      ['POST', '/v1/conversations'],
      ['PUT', `/v1/conversations/${conversation_id}`],
      ['POST', `/v1/conversations/${conversation_id}/messages`],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 })), async ([method, path], json) => {
        const { status } = await svc.api(method, path, { token, json });
        return status < 500;
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (query) => {
        const { status } = await svc.api('GET', `/v1/contacts?${query}`, { token });
        return status < 500;
      }),
      { numRuns: 100 },
    );
  });
});

describe('rate limit and unexpected errors', () => {
  test('over the per-token rate: 429 with Retry-After; another token is unaffected', async () => {
    // Next to no refill (one token in 10,000 s): the fourth request is refused however slow the machine.
    const limited = await startTestService({ rateLimit: only(3) });
    try {
      const mine = limited.credentials.accessToken;
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.api('GET', '/v1/contacts', { token: mine })).status);
      assert.deepEqual(statuses.slice(0, 3), [200, 200, 200]);
      const refused = await limited.api('GET', '/v1/contacts', { token: mine });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.type, 'rate_limit_error');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const other = (await limited.services.users.issueToken('other')).accessToken;
      assert.equal((await limited.api('GET', '/v1/contacts', { token: other })).status, 200);
    } finally {
      await limited.close();
    }
  });

  test('a bug answers a bare 500 without a stack, and is logged on the server', async () => {
    const lines: string[] = [];
    const store = await EmbeddedStore.open();
    const config = testConfig();
    const services = createServices(store, { log: (level, msg, fields) => lines.push(JSON.stringify({ level, msg, ...fields })) }, config);
    await ensureSeeded(services);
    const app = createApp(services);
    app.use(() => {
      throw new Error('kaboom at /secret/path.ts:12');
    });
    const server = createServer(app.callback()).listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const api = apiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const { status, body } = await api('GET', '/boom');
      assert.equal(status, 500);
      assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.doesNotMatch(JSON.stringify(body), /kaboom|secret|\.ts/);
      assert.ok(lines.some((line) => line.includes('kaboom')));
    } finally {
      server.close();
    }
  });
});
