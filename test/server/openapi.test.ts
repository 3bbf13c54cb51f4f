import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { operations } from '../../server/http/operation.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

test('GET /v1/openapi.json describes every operation the service mounts, without auth', async () => {
  const { status, body } = await svc.api('GET', '/v1/openapi.json');
  assert.equal(status, 200);
  assert.equal(body.openapi, '3.1.0');
  assert.ok(operations.length >= 12);
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const described = body.paths[path]?.[op.method];
    assert.ok(described, `${op.method.toUpperCase()} ${path} is described`);
    assert.ok(described.responses['200'].content['application/json'].schema);
    assert.ok(described.responses['4XX']);
    if (op.body) assert.ok(described.requestBody.content['application/x-www-form-urlencoded'], `${path} takes form fields`);
  }
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
