import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

/** Every operation the README's route tables list (written out here, not read from the code). */
const DOCUMENTED: [string, string, boolean][] = [
  ['get', '/v1/contacts', false], ['post', '/v1/contacts', true], ['get', '/v1/contacts/{id}', false], ['put', '/v1/contacts/{id}', true], ['delete', '/v1/contacts/{id}', false],
  ['get', '/v1/conversations', false], ['post', '/v1/conversations', true], ['get', '/v1/conversations/{id}', false], ['put', '/v1/conversations/{id}', true],
  ['delete', '/v1/conversations/{id}', false], ['get', '/v1/conversations/{id}/messages', false], ['post', '/v1/conversations/{id}/messages', true],
  ['post', '/v1/payment_intents', true], ['get', '/v1/payment_intents', false], ['get', '/v1/payment_intents/{id}', false], ['post', '/v1/payment_intents/{id}', true], ['post', '/v1/tokens', true],
  ['post', '/v1/refunds', true], ['get', '/v1/refunds', false], ['get', '/v1/refunds/{id}', false],
  ...['attach', 'confirm', 'authorise', 'capture', 'cancel', 'verify'].map((op): [string, string, boolean] => ['post', `/v1/payment_intents/${op}`, true]),
  ['get', '/intent', false], ['post', '/intent/attach', true], ['post', '/intent/confirm', true], ['post', '/intent/authorise', true], ['post', '/frames/tokenise', true],
  ['post', '/frames/wallet/approve', true], ['post', '/frames/wallet/sheet', true],
  ['get', '/v1/events', false], ['get', '/v1/events/{id}', false], ['get', '/v1/public_keys/{key}', false], ['post', '/v1/events/{id}/retry', true],
  ['post', '/v1/webhook_endpoints', true], ['get', '/v1/webhook_endpoints', false], ['get', '/v1/webhook_endpoints/{id}', false],
  ['post', '/v1/webhook_endpoints/{id}', true], ['delete', '/v1/webhook_endpoints/{id}', false], ['post', '/v1/webhook_endpoints/{id}/rotate_secret', false],
  ['get', '/v1/webhook_endpoints/{id}/attempts', false],
];

test('GET /v1/openapi.json describes every operation the README lists, without auth', async () => {
  const { status, body } = await svc.api('GET', '/v1/openapi.json');
  assert.equal(status, 200);
  assert.equal(body.openapi, '3.1.0');
  for (const [method, path, takesBody] of DOCUMENTED) {
    const described = body.paths[path]?.[method];
    assert.ok(described, `${method.toUpperCase()} ${path} is described`);
    assert.ok(described.responses['200'].content['application/json'].schema);
    assert.ok(described.responses['4XX']);
    if (takesBody) assert.ok(described.requestBody.content['application/x-www-form-urlencoded'], `${path} takes form fields`);
  }
  const count = Object.values(body.paths as Record<string, object>).reduce((n, methods) => n + Object.keys(methods).length, 0);
  assert.equal(count, DOCUMENTED.length, 'and nothing the README does not list');
  for (const name of ['Contact', 'Conversation', 'Message', 'Error']) assert.ok(body.components.schemas[name], name);
  // Every schema in it compiles as JSON Schema 2020-12.
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: 'https://x.invalid/doc', components: body.components, paths: body.paths });
  assert.ok(ajv.getSchema('https://x.invalid/doc#/components/schemas/Contact'));
});

test('the contact schema states every field and nullability of the spec', async () => {
  const { body } = await svc.api('GET', '/v1/openapi.json');
  const contact = body.components.schemas.Contact;
  assert.deepEqual(
    Object.keys(contact.properties).sort(),
    ['avatar_url', 'conversation_id', 'created_at', 'display_name', 'id', 'last_active_at', 'object', 'phone_number', 'username'],
  );
  assert.deepEqual(contact.properties.display_name.type, ['string', 'null']);
  assert.equal(contact.properties.created_at.type, 'integer');
  const conversation = body.components.schemas.Conversation;
  for (const field of ['contact_id', 'group_id', 'pinned_message_id', 'last_active_at', 'last_opened_at', 'archived_at'])
    assert.ok(JSON.stringify(conversation.properties[field]).includes('null'), `${field} is nullable`);
  for (const field of ['is_pinned', 'is_muted']) assert.equal(conversation.properties[field].type, 'boolean');
});
