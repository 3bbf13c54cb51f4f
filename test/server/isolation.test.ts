import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
let alice: string;
let mallory: string;
before(async () => {
  svc = await startTestService();
  alice = (await svc.services.users.issueToken('alice')).accessToken;
  mallory = (await svc.services.users.issueToken('mallory')).accessToken;
});
after(() => svc.close());

test("another user's ids answer 404, exactly as absent ones, and change nothing", async () => {
  const contact = (await svc.api('POST', '/v1/contacts', { token: alice, form: { username: 'bob', phone_number: '+441234567' } })).body;
  const message = (await svc.api('POST', `/v1/conversations/${contact.conversation_id}/messages`, { token: alice, form: { text: 'secret' } })).body;
  const probes: [string, string, Record<string, string>?][] = [
    ['GET', `/v1/contacts/${contact.id}`],
    ['PUT', `/v1/contacts/${contact.id}`, { display_name: 'pwned' }],
    ['DELETE', `/v1/contacts/${contact.id}`],
    ['GET', `/v1/conversations/${contact.conversation_id}`],
    ['PUT', `/v1/conversations/${contact.conversation_id}`, { is_muted: 'true' }],
    ['DELETE', `/v1/conversations/${contact.conversation_id}`],
    ['GET', `/v1/conversations/${contact.conversation_id}/messages`],
    ['POST', `/v1/conversations/${contact.conversation_id}/messages`, { text: 'hi' }],
  ];
  for (const [method, path, form] of probes) {
    const theirs = await svc.api(method, path, { token: mallory, form });
    const absent = await svc.api(method, path.replace(/(ctc|cnv)_\w+/, '$1_doesnotexist'), { token: mallory, form });
    assert.equal(theirs.status, 404, `${method} ${path}`);
    assert.equal(theirs.body.error.code, absent.body.error.code);
  }
  const created = await svc.api('POST', '/v1/conversations', { token: mallory, form: { contact_id: contact.id } });
  assert.equal(created.status, 404);
  // A cursor is a place in the list (its id carries it): another user's answers exactly as an absent
  // id of the same place, and pages Mallory's own list, never Alice's.
  await svc.api('POST', '/v1/contacts', { token: mallory, form: { username: 'own', phone_number: '+441234567' } });
  const samePlace = `${contact.id.slice(0, 'ctc_'.length + 9)}${'0'.repeat(16)}`;
  const cursor = await svc.api('GET', `/v1/contacts?starting_after=${contact.id}`, { token: mallory });
  const absentCursor = await svc.api('GET', `/v1/contacts?starting_after=${samePlace}`, { token: mallory });
  assert.equal(cursor.status, 200);
  assert.deepEqual(cursor.body, absentCursor.body);
  assert.deepEqual(cursor.body.data, []);

  // Alice still has it all, untouched.
  const still = (await svc.api('GET', `/v1/contacts/${contact.id}`, { token: alice })).body;
  assert.equal(still.display_name, null);
  const conversation = (await svc.api('GET', `/v1/conversations/${contact.conversation_id}`, { token: alice })).body;
  assert.equal(conversation.is_muted, false);
  const messages = (await svc.api('GET', `/v1/conversations/${contact.conversation_id}/messages`, { token: alice })).body;
  assert.deepEqual(messages.data.map((m: any) => m.id), [message.id]);
  assert.deepEqual((await svc.api('GET', '/v1/contacts', { token: mallory })).body.data.map((c: any) => c.username), ['own']);
  assert.equal((await svc.api('GET', '/v1/conversations', { token: mallory })).body.data.length, 1);
});
