/**
 * cpe/server's messaging client (CpeMessagingClient), typed by the operation table, against a real
 * service: every operation, queries, errors as CpeApiError with the table's codes; and the demo's
 * inbox, which uses it instead of fetches of its own.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CpeApiError, CpeMessagingClient } from '../../client/index.ts';
import { startDemo } from '../../demo/server.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
let messaging: CpeMessagingClient;
before(async () => {
  svc = await startTestService();
  messaging = new CpeMessagingClient({ accessToken: svc.credentials.accessToken, baseUrl: svc.url, maxRetries: 0 });
});
after(() => svc.close());

describe('CpeMessagingClient', () => {
  test('contacts: create, list with a query, retrieve, update, delete', async () => {
    const ada = await messaging.createContact({ username: 'ada', phone_number: '07700900001' });
    const bob = await messaging.createContact({ username: 'bob', phone_number: '07700900002' });
    assert.equal(ada.object, 'contact');
    const page = await messaging.listContacts({ limit: 1, active: false });
    assert.deepEqual(page.data.map((c) => c.id), [bob.id], 'newest first, one per page');
    assert.equal(page.has_more, true);
    const next = await messaging.listContacts({ limit: 1, starting_after: bob.id });
    assert.deepEqual(next.data.map((c) => c.id), [ada.id]);
    assert.equal((await messaging.updateContact(ada.id, { display_name: 'Ada L.' })).display_name, 'Ada L.');
    assert.equal((await messaging.retrieveContact(ada.id)).display_name, 'Ada L.');
    assert.deepEqual(await messaging.deleteContact(bob.id), { id: bob.id, object: 'contact', deleted: true });
    await assert.rejects(messaging.retrieveContact(bob.id), (error: unknown) => error instanceof CpeApiError && error.status === 404 && error.code === 'resource_missing');
  });

  test('conversations and messages: update, archive, post and list', async () => {
    const contact = await messaging.createContact({ username: 'cy', phone_number: '07700900003' });
    const id = contact.conversation_id!;
    await messaging.createMessage(id, { text: 'one' });
    await messaging.createMessage(id, { text: 'two', sender: 'contact' });
    const messages = await messaging.listMessages(id, { limit: 1 });
    assert.deepEqual(messages.data.map((m) => m.text), ['two']);
    assert.equal((await messaging.updateConversation(id, { is_pinned: true, archived: true })).is_pinned, true);
    const archived = await messaging.listConversations({ archived: true });
    assert.ok(archived.data.some((c) => c.id === id));
    assert.ok(!(await messaging.listConversations({ archived: false })).data.some((c) => c.id === id));
    const group = await messaging.createConversation({ group_id: 'team' });
    assert.equal((await messaging.retrieveConversation(group.id)).group_id, 'team');
    assert.equal((await messaging.deleteConversation(group.id)).deleted, true);
  });

  test("a refused request is a CpeApiError with the table's code and the field", async () => {
    await assert.rejects(
      messaging.createContact({ username: 'x', phone_number: '' }),
      (error: unknown) => error instanceof CpeApiError && error.status === 400 && error.type === 'invalid_request_error' && error.param === 'phone_number',
    );
    const stranger = new CpeMessagingClient({ accessToken: 'cpe_at_nobody', baseUrl: svc.url, maxRetries: 0 });
    await assert.rejects(stranger.listContacts(), (error: unknown) => error instanceof CpeApiError && error.status === 401 && error.code === 'unauthenticated');
  });
});

describe("the demo's inbox, through CpeMessagingClient", () => {
  test('adding a contact by its form shows the conversation; a refusal is shown on the page', async () => {
    const demo = await startDemo({ port: 0, credentials: { ...svc.credentials, serviceUrl: svc.url } });
    const url = `http://127.0.0.1:${(demo.server.address() as AddressInfo).port}`;
    try {
      const added = await fetch(`${url}/inbox/contacts`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'dana', phone_number: '07700900004' }),
      });
      assert.equal(added.status, 303);
      const page = await (await fetch(new URL(added.headers.get('location')!, url))).text();
      assert.match(page, /<bdi>dana<\/bdi>/);
      const refused = await fetch(`${url}/inbox/contacts`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'eve', phone_number: '' }),
      });
      const shown = await (await fetch(new URL(refused.headers.get('location')!, url))).text();
      assert.match(shown, /role="alert"[^>]*>[^<]*phone_number/);
    } finally {
      demo.server.closeAllConnections();
      await new Promise((resolve) => demo.server.close(resolve));
    }
  });
});
