import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
let token: string;
before(async () => {
  svc = await startTestService();
  token = svc.credentials.accessToken;
});
after(() => svc.close());

const create = (fields: Record<string, string>) => svc.api('POST', '/v1/contacts', { token, form: fields });

describe('POST /v1/contacts', () => {
  test('creates a contact with its conversation, from form fields', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await create({ username: 'ada', phone_number: '+44 20 7946 0958', avatar_url: 'https://example.com/a.png' });
    assert.equal(status, 200);
    assert.match(body.id, /^ctc_/);
    assert.equal(body.object, 'contact');
    assert.equal(body.username, 'ada');
    assert.equal(body.phone_number, '+44 20 7946 0958');
    assert.equal(body.avatar_url, 'https://example.com/a.png');
    assert.equal(body.display_name, null);
    assert.equal(body.last_active_at, null);
    const after = Math.ceil(Date.now() / 1000);
    assert.ok(body.created_at >= before && body.created_at <= after, `created_at is Unix seconds, while the request ran: ${before} ≤ ${body.created_at} ≤ ${after}`);
    const conversation = await svc.api('GET', `/v1/conversations/${body.conversation_id}`, { token });
    assert.equal(conversation.status, 200);
    assert.equal(conversation.body.contact_id, body.id);
  });

  test('accepts JSON and defaults avatar_url to empty', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, json: { username: 'bea', phone_number: '07700900123' } });
    assert.equal(status, 200);
    assert.equal(body.avatar_url, '');
  });

  for (const [name, fields, param] of [
    ['missing username', { phone_number: '+441234567' }, 'username'],
    ['missing phone_number', { username: 'x' }, 'phone_number'],
    ['hostile username', { username: '<script>', phone_number: '+441234567' }, 'username'],
    ['letters in phone', { username: 'x', phone_number: 'call me' }, 'phone_number'],
    ['javascript avatar', { username: 'x', phone_number: '+441234567', avatar_url: 'javascript:alert(1)' }, 'avatar_url'],
    ['unknown field', { username: 'x', phone_number: '+441234567', admin: 'true' }, 'admin'],
    ['oversized username', { username: 'u'.repeat(65), phone_number: '+441234567' }, 'username'],
  ] as const) {
    test(`${name}: 400 naming ${param}, nothing created`, async () => {
      const count = (await svc.api('GET', '/v1/contacts?limit=100', { token })).body.data.length;
      const { status, body } = await create(fields as Record<string, string>);
      assert.equal(status, 400);
      assert.equal(body.error.type, 'invalid_request_error');
      assert.equal(body.error.param, param);
      assert.match(body.error.message, new RegExp(param));
      assert.equal((await svc.api('GET', '/v1/contacts?limit=100', { token })).body.data.length, count);
    });
  }

  test('a JSON number where a string belongs is a 400 naming the field', async () => {
    const { status, body } = await svc.api('POST', '/v1/contacts', { token, json: { username: 42, phone_number: '+441234567' } });
    assert.equal(status, 400);
    assert.equal(body.error.param, 'username');
  });
});

describe('GET, PUT, DELETE /v1/contacts/:id', () => {
  test('retrieves, updates display_name only, clears it, deletes with its conversation', async () => {
    const contact = (await create({ username: 'cy', phone_number: '+441111111' })).body;
    assert.deepEqual((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body, contact);

    const renamed = await svc.api('PUT', `/v1/contacts/${contact.id}`, { token, form: { display_name: 'Cy Twombly' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.display_name, 'Cy Twombly');
    assert.deepEqual({ ...renamed.body, display_name: null }, contact);

    const refused = await svc.api('PUT', `/v1/contacts/${contact.id}`, { token, form: { username: 'other' } });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.param, 'username');
    assert.equal((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body.username, 'cy');

    const cleared = await svc.api('PUT', `/v1/contacts/${contact.id}`, { token, json: { display_name: null } });
    assert.equal(cleared.body.display_name, null);

    const deleted = await svc.api('DELETE', `/v1/contacts/${contact.id}`, { token });
    assert.deepEqual(deleted.body, { id: contact.id, object: 'contact', deleted: true });
    assert.equal((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).status, 404);
    assert.equal((await svc.api('GET', `/v1/conversations/${contact.conversation_id}`, { token })).status, 404);
    assert.equal((await svc.api('DELETE', `/v1/contacts/${contact.id}`, { token })).status, 404);
  });

  test('an unknown id is a 404 with the error object', async () => {
    const { status, body } = await svc.api('GET', '/v1/contacts/ctc_nothing', { token });
    assert.equal(status, 404);
    assert.equal(body.error.code, 'resource_missing');
    assert.equal(body.error.type, 'invalid_request_error');
  });
});

describe('GET /v1/contacts?active', () => {
  test('active=true lists contacts with a last_active_at, active=false those without', async () => {
    const quiet = (await create({ username: 'quiet', phone_number: '+442222222' })).body;
    const chatty = (await create({ username: 'chatty', phone_number: '+443333333' })).body;
    await svc.api('POST', `/v1/conversations/${chatty.conversation_id}/messages`, { token, form: { text: 'hi' } });

    const active = (await svc.api('GET', '/v1/contacts?active=true&limit=100', { token })).body.data.map((c: any) => c.id);
    const inactive = (await svc.api('GET', '/v1/contacts?active=false&limit=100', { token })).body.data.map((c: any) => c.id);
    assert.ok(active.includes(chatty.id) && !active.includes(quiet.id));
    assert.ok(inactive.includes(quiet.id) && !inactive.includes(chatty.id));
    const bad = await svc.api('GET', '/v1/contacts?active=yes', { token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'active');
  });
});
