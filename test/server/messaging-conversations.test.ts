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

const newContact = async (username: string) =>
  (await svc.api('POST', '/v1/contacts', { token, form: { username, phone_number: '+441234567' } })).body;
const update = (id: string, form: Record<string, string>) => svc.api('PUT', `/v1/conversations/${id}`, { token, form });

describe('POST /v1/conversations', () => {
  test('a group conversation starts unpinned, unmuted, with null timestamps', async () => {
    const { status, body } = await svc.api('POST', '/v1/conversations', { token, form: { group_id: 'grp_book_club' } });
    assert.equal(status, 200);
    assert.match(body.id, /^cnv_/);
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined },
      {
        id: undefined,
        object: 'conversation',
        contact_id: null,
        group_id: 'grp_book_club',
        pinned_message_id: null,
        is_pinned: false,
        is_muted: false,
        last_active_at: null,
        last_opened_at: null,
        created_at: undefined,
        archived_at: null,
      },
    );
    const again = await svc.api('POST', '/v1/conversations', { token, form: { group_id: 'grp_book_club' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.param, 'group_id');
  });

  test('one conversation per contact; a deleted one can be created again', async () => {
    const contact = await newContact('dee');
    const twice = await svc.api('POST', '/v1/conversations', { token, form: { contact_id: contact.id } });
    assert.equal(twice.status, 409);
    assert.match(twice.body.error.message, new RegExp(contact.conversation_id));

    await svc.api('DELETE', `/v1/conversations/${contact.conversation_id}`, { token });
    const fresh = await svc.api('POST', '/v1/conversations', { token, json: { contact_id: contact.id } });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.contact_id, contact.id);
    assert.equal((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body.conversation_id, fresh.body.id);
    const again = await svc.api('POST', '/v1/conversations', { token, form: { contact_id: contact.id } });
    assert.equal(again.status, 409, 'the new conversation is the one a further create runs into');
    assert.match(again.body.error.message, new RegExp(fresh.body.id));
  });

  for (const [name, form, param, expected, code] of [
    ['neither id', {}, 'contact_id', 400, 'parameter_missing'],
    ['both ids', { contact_id: 'ctc_x', group_id: 'g' }, 'group_id', 400, 'parameter_invalid'],
    ['unknown contact', { contact_id: 'ctc_missing' }, 'contact_id', 404, 'resource_missing'],
    ['hostile group id', { group_id: '../../etc' }, 'group_id', 400, 'parameter_invalid'],
  ] as const) {
    test(`${name}: ${expected} ${code} naming ${param}`, async () => {
      const { status, body } = await svc.api('POST', '/v1/conversations', { token, form: form as Record<string, string> });
      assert.equal(status, expected);
      assert.equal(body.error.code, code);
      assert.equal(body.error.param, param);
    });
  }
});

describe('PUT /v1/conversations/:id', () => {
  test('pins, mutes, archives and restores, marks opened, and pins a message of its own', async () => {
    const contact = await newContact('eve');
    const id = contact.conversation_id;
    assert.equal((await update(id, { is_pinned: 'true' })).body.is_pinned, true);
    assert.equal((await update(id, { is_muted: 'true' })).body.is_muted, true);
    assert.equal((await svc.api('PUT', `/v1/conversations/${id}`, { token, json: { is_muted: false } })).body.is_muted, false);

    const archived = (await update(id, { archived: 'true' })).body;
    assert.equal(typeof archived.archived_at, 'number');
    assert.equal((await update(id, { archived: 'true' })).body.archived_at, archived.archived_at, 'archiving twice keeps the first time');
    const listedArchived = (await svc.api('GET', '/v1/conversations?archived=true&limit=100', { token })).body.data.map((c: any) => c.id);
    assert.ok(listedArchived.includes(id));
    assert.equal((await update(id, { archived: 'false' })).body.archived_at, null);

    const opened = Math.floor(Date.now() / 1000);
    assert.equal((await update(id, { last_opened_at: String(opened) })).body.last_opened_at, opened);
    assert.equal((await update(id, { last_opened_at: String(opened + 86_400) })).status, 400);

    const message = (await svc.api('POST', `/v1/conversations/${id}/messages`, { token, form: { text: 'pin me' } })).body;
    assert.equal((await update(id, { pinned_message_id: message.id })).body.pinned_message_id, message.id);
    assert.equal((await update(id, { pinned_message_id: '' })).body.pinned_message_id, null);
  });

  test('a message of another conversation cannot be pinned, and nothing changes', async () => {
    const a = await newContact('fay');
    const b = await newContact('gus');
    const foreign = (await svc.api('POST', `/v1/conversations/${b.conversation_id}/messages`, { token, form: { text: 'x' } })).body;
    const { status, body } = await update(a.conversation_id, { pinned_message_id: foreign.id, is_muted: 'true' });
    assert.equal(status, 404);
    assert.equal(body.error.code, 'resource_missing');
    assert.equal(body.error.param, 'pinned_message_id');
    const unchanged = (await svc.api('GET', `/v1/conversations/${a.conversation_id}`, { token })).body;
    assert.equal(unchanged.is_muted, false);
    assert.equal(unchanged.pinned_message_id, null);
  });

  for (const [form, param] of [
    [{ is_muted: 'maybe' }, 'is_muted'],
    [{ archived: '1' }, 'archived'],
    [{ last_opened_at: 'yesterday' }, 'last_opened_at'],
    [{ contact_id: 'ctc_x' }, 'contact_id'],
  ] as const) {
    test(`bad ${param} is a 400 naming it`, async () => {
      const { conversation_id } = await newContact(`h${param.length}`);
      const { status, body } = await update(conversation_id, form as Record<string, string>);
      assert.equal(status, 400);
      assert.equal(body.error.param, param);
    });
  }
});

describe('DELETE /v1/conversations/:id', () => {
  test('removes the conversation and all its messages', async () => {
    const { conversation_id } = await svc.api('POST', '/v1/conversations', { token, form: { group_id: 'grp_gone' } }).then((r) => ({ conversation_id: r.body.id }));
    const message = (await svc.api('POST', `/v1/conversations/${conversation_id}/messages`, { token, form: { text: 'bye' } })).body;
    const deleted = await svc.api('DELETE', `/v1/conversations/${conversation_id}`, { token });
    assert.deepEqual(deleted.body, { id: conversation_id, object: 'conversation', deleted: true });
    assert.equal((await svc.api('GET', `/v1/conversations/${conversation_id}`, { token })).status, 404);
    assert.equal((await svc.api('GET', `/v1/conversations/${conversation_id}/messages`, { token })).status, 404);
    const rows = svc.services.store.collection<{ id: string }>('messages');
    assert.equal(await rows.get(message.id), undefined, 'the message row is gone from the store');
  });
});

describe('messages', () => {
  test('posting moves last_active_at of the conversation and the contact; list newest first', async () => {
    const contact = await newContact('ida');
    const first = (await svc.api('POST', `/v1/conversations/${contact.conversation_id}/messages`, { token, form: { text: 'one' } })).body;
    const second = (await svc.api('POST', `/v1/conversations/${contact.conversation_id}/messages`, { token, json: { text: 'two', sender: 'contact' } })).body;
    assert.equal(second.sender, 'contact');
    const conversation = (await svc.api('GET', `/v1/conversations/${contact.conversation_id}`, { token })).body;
    const refreshed = (await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body;
    assert.equal(conversation.last_active_at, second.created_at);
    assert.equal(refreshed.last_active_at, second.created_at);
    const list = (await svc.api('GET', `/v1/conversations/${contact.conversation_id}/messages`, { token })).body;
    assert.deepEqual(list.data.map((m: any) => m.id), [second.id, first.id]);
    assert.equal(list.url, `/v1/conversations/${contact.conversation_id}/messages`);
  });

  for (const [json, param] of [
    [{}, 'text'],
    [{ text: '' }, 'text'],
    [{ text: 'x'.repeat(4001) }, 'text'],
    [{ text: 'bell\u0007' }, 'text'],
    [{ text: 'ok', sender: 'admin' }, 'sender'],
  ] as const) {
    test(`bad message ${JSON.stringify(json).slice(0, 30)} is a 400 naming ${param}`, async () => {
      const { conversation_id } = await newContact('jo');
      const { status, body } = await svc.api('POST', `/v1/conversations/${conversation_id}/messages`, { token, json });
      assert.equal(status, 400);
      assert.equal(body.error.param, param);
      assert.equal((await svc.api('GET', `/v1/conversations/${conversation_id}`, { token })).body.last_active_at, null);
    });
  }
});
