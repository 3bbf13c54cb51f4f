import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { spawnNode, stop, type Child } from '../../testkit/processes.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * Every request the README shows, sent through Stoplight Prism in proxy mode with `--errors`: Prism
 * validates each request against /v1/openapi.json (a request it finds invalid is its own 422) and
 * each answer too (a violation is a 500 from Prism), so the description and the service agree.
 */
const root = resolve(import.meta.dirname, '../..');
let svc: TestService;
let prism: Child;
let proxy: string;

before(async () => {
  svc = await startTestService();
  const doc = join(mkdtempSync(join(tmpdir(), 'cpe-prism-')), 'openapi.json');
  writeFileSync(doc, JSON.stringify(await (await fetch(`${svc.url}/v1/openapi.json`)).json()));
  // Port 0: Prism prints the address it bound.
  prism = spawnNode('prism', [join(root, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'proxy', doc, svc.url, '--errors', '--host', '127.0.0.1', '--port', '0'], { cwd: root });
  // Prism is a heavy CLI: on a busy machine it took more than 30 s to start.
  proxy = (await prism.line(/Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/, 120_000))[1]!;
});
after(async () => {
  await stop(prism);
  await svc.close();
});

/** A curl-like request through the proxy: `-d` fields become a form body, as curl sends them. */
async function through(method: string, path: string, headers: Record<string, string>, fields?: [string, string][]) {
  const body = fields ? fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') : undefined;
  const r = await fetch(proxy + path, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body,
  });
  const json = await r.json();
  assert.equal(r.status, 200, `${method} ${path} through Prism: ${JSON.stringify(json)}`);
  return json;
}

test('the README messaging examples pass the validating proxy', async () => {
  const auth = { authorization: `Bearer ${svc.credentials.accessToken}` };
  const contact = await through('POST', '/v1/contacts', auth, [['username', 'bob'], ['phone_number', '07700900123']]);
  await through('GET', '/v1/contacts?limit=5', auth);
  await through('PUT', `/v1/conversations/${contact.conversation_id}`, auth, [['is_pinned', 'true'], ['archived', 'true']]);
  // A PUT with nothing to change is no error: its body is optional.
  await through('PUT', `/v1/conversations/${contact.conversation_id}`, auth);
  await through('PUT', `/v1/contacts/${contact.id}`, auth, [['display_name', 'Bob']]);
  await through('POST', `/v1/conversations/${contact.conversation_id}/messages`, auth, [['text', 'hello']]);
});

test('the README test payment passes the validating proxy, form bodies with nested fields included', async () => {
  const { licenceKey, publicKey, merchantId } = svc.credentials;
  const backend = { authorization: `Bearer ${licenceKey}` };
  const pi = await through('POST', '/v1/payment_intents', backend, [
    ['merchantid', String(merchantId)], ['amount', '1234'], ['currency', 'GBP'], ['identifier', 'order-1'], ['billTo[email]', 'ada@example.com'],
  ]);
  const session = { 'X-CPE-Public-Key': publicKey, 'X-CPE-Session-Token': pi.session_token };
  // A server tokenises a test card with its licence key; the hosted frames' route refuses it (no Origin).
  const tok = await through('POST', '/v1/tokens', backend, [
    ['card[number]', '4242424242424242'], ['card[exp_month]', '12'], ['card[exp_year]', '2030'], ['card[cvc]', '123'], ['card[name]', 'Ada Lovelace'],
  ]);
  await through('POST', '/v1/payment_intents/attach', backend, [['payment_intent_id', pi.paymentIntentId], ['token', tok.data.cp_card_token]]);
  // The browser's confirm may send no body at all: the session names the intent.
  const confirmed = await through('POST', '/intent/confirm', session);
  assert.equal(confirmed.status, 'requires_authorisation');
  await through('POST', '/v1/payment_intents/authorise', backend, [['payment_intent_id', pi.paymentIntentId]]);
  const verified = await through('POST', '/v1/payment_intents/verify', backend, [['payment_intent_id', pi.paymentIntentId], ['unmask_fields[0]', 'email']]);
  assert.equal(verified.status, 'success');
  assert.equal(verified.auth.email, 'ada@example.com');
  // After the authorisation: a partial refund, the refunds, metadata by update, the filtered list.
  const refund = await through('POST', '/v1/refunds', backend, [['payment_intent', pi.paymentIntentId], ['amount', '500'], ['metadata[reason]', 'broken nib']]);
  assert.equal(refund.status, 'succeeded');
  await through('GET', `/v1/refunds?payment_intent=${pi.paymentIntentId}`, backend);
  await through('POST', `/v1/payment_intents/${pi.paymentIntentId}`, backend, [['metadata[order_id]', '6735'], ['description', 'Two pens']]);
  const listed = await through('GET', '/v1/payment_intents?status=succeeded&metadata[order_id]=6735&created[gte]=0&limit=3', backend);
  assert.deepEqual(listed.data.map((i: { id: string }) => i.id), [pi.paymentIntentId]);
});

test('the proxy is really validating: a request the description refuses is its 422, not the service\'s answer', async () => {
  const r = await fetch(`${proxy}/v1/payment_intents/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.credentials.licenceKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'payment_intent_id=not-an-id',
  });
  assert.equal(r.status, 422);
});
