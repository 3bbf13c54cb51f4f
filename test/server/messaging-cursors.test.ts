import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { idPosition } from '../../server/identity/ids.ts';
import { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { embeddedOnly, startTestService, testEngine, type Api, type TestService } from '../helpers/service.ts';
import { accessTokenOf, startServiceProcess } from '../helpers/service-process.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { apiClient } from '../helpers/service.ts';

/**
 * `starting_after=<deleted id>` keeps a walk going: across restarts (clean and kill -9), whatever
 * other users delete and however many deletes there were, with no memory of deletes (ids carry their
 * place in the list), and for ids made before they did (a durable record of those deleted).
 */

const contact = (api: Api, token: string, username: string) =>
  api('POST', '/v1/contacts', { token, form: { username, phone_number: '+441234567' } }).then((r) => {
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as string;
  });

async function walk(api: Api, token: string, path: string, cursor?: string, limit = 3): Promise<string[]> {
  const seen: string[] = [];
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const { status, body } = await api('GET', `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`, { token });
    assert.equal(status, 200, JSON.stringify(body));
    seen.push(...body.data.map((c: { id: string }) => c.id));
    if (!body.has_more) return seen;
    cursor = body.data.at(-1).id;
  }
}

const open: TestService[] = [];
after(() => Promise.all(open.map((s) => s.close())));

describe('deleted cursors', () => {
  test('a deleted cursor, and its deleted neighbours, page on from where they stood, both ways', async () => {
    const svc = await startTestService();
    open.push(svc);
    const token = svc.credentials.accessToken;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.unshift(await contact(svc.api, token, `c${i}`)); // newest first
    for (const gone of [ids[4], ids[5], ids[6]]) assert.equal((await svc.api('DELETE', `/v1/contacts/${gone}`, { token })).status, 200);
    assert.deepEqual(await walk(svc.api, token, '/v1/contacts', ids[5]), ids.slice(7));
    const before = await svc.api('GET', `/v1/contacts?limit=2&ending_before=${ids[5]}`, { token });
    assert.deepEqual(before.body.data.map((c: { id: string }) => c.id), [ids[2], ids[3]]);
    assert.equal(before.body.has_more, true);
  });

  test('after a clean restart a deleted cursor still pages on', embeddedOnly, async () => {
    const dataDir = tempDataDir();
    let svc = await startTestService({ dataDir });
    const token = svc.credentials.accessToken;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.unshift(await contact(svc.api, token, `r${i}`));
    await svc.api('DELETE', `/v1/contacts/${ids[3]}`, { token });
    await svc.close();
    svc = await startTestService({ dataDir });
    open.push(svc);
    assert.deepEqual(await walk(svc.api, token, '/v1/contacts', ids[3]), ids.slice(4));
  });

  test('after kill -9 a deleted cursor still pages on', embeddedOnly, async () => {
    const dataDir = tempDataDir();
    let proc = await startServiceProcess(dataDir);
    try {
      const token = accessTokenOf(dataDir);
      let api = apiClient(proc.url);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.unshift(await contact(api, token, `k${i}`));
      await api('DELETE', `/v1/contacts/${ids[2]}`, { token });
      await proc.stop('SIGKILL');
      proc = await startServiceProcess(dataDir);
      api = apiClient(proc.url);
      assert.deepEqual(await walk(api, token, '/v1/contacts', ids[2]), ids.slice(3));
    } finally {
      await proc.stop('SIGKILL');
    }
  });

  test("another user's thousands of deletes do not break a user's paging", async () => {
    const svc = await startTestService();
    open.push(svc);
    const token = svc.credentials.accessToken;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.unshift(await contact(svc.api, token, `a${i}`));
    await svc.api('DELETE', `/v1/contacts/${ids[2]}`, { token });
    // Another user creates and deletes 10,050 contacts (in process: the HTTP path is tested above),
    // past any cap on remembered deletes. In transactions of 50: the count is what such a cap trips
    // over, not where transactions end. PostgreSQL keeps no record of a deleted id that carries its
    // place (its tombstones hold only older ids, tested below), so its leg makes 1,050 (10,050 took
    // a minute there).
    const { store, messaging } = svc.services;
    const batches = async (count: number, each: (i: number) => Promise<unknown>) => {
      for (let start = 0; start < count; start += 50) {
        await store.transaction(async () => {
          for (let i = start; i < Math.min(count, start + 50); i++) await each(i);
        });
      }
    };
    const other = (await svc.services.users.issueToken('mallory')).user.id;
    await batches(testEngine() === 'postgres' ? 1_050 : 10_050, async (i) => messaging.deleteContact(other, (await messaging.createContact(other, { username: `m${i}`, phone_number: '+441234567' })).id));
    assert.deepEqual(await walk(svc.api, token, '/v1/contacts', ids[2]), ids.slice(3));
    // The user's own thousands of deletes: every deleted cursor still pages on (on PostgreSQL, which
    // has no cap to trip over, hundreds: its leg took two minutes with thousands).
    const many: string[] = [];
    const user = (await svc.services.users.userOf(token))!.id;
    const made = testEngine() === 'postgres' ? 300 : 3_000;
    await batches(made, async (i) => many.unshift((await messaging.createContact(user, { username: `b${i}`, phone_number: '+441234567' })).id));
    await batches(made / 2, (i) => messaging.deleteContact(user, many[i * 2]!));
    const page = await svc.api('GET', `/v1/contacts?limit=2&starting_after=${many[0]}`, { token });
    assert.deepEqual(page.body.data.map((c: { id: string }) => c.id), [many[1], many[3]]);
  });

  test('a cursor is a place: absent, deleted or another user\'s alike; one of another type is a 404', async () => {
    const svc = await startTestService();
    open.push(svc);
    const token = svc.credentials.accessToken;
    const other = await svc.services.users.issueToken('eve');
    const mine: string[] = [];
    mine.unshift(await contact(svc.api, token, 'old'));
    const theirs = await contact(svc.api, other.accessToken, 'theirs');
    mine.unshift(await contact(svc.api, token, 'new'));
    const after = async (cursor: string) => (await svc.api('GET', `/v1/contacts?starting_after=${cursor}`, { token })).body.data.map((c: { id: string }) => c.id);
    // Another user's live contact answers exactly as an id of the same time that never existed.
    const made = theirs.slice(0, 'ctc_'.length + 9) + 'A'.repeat(16);
    assert.equal(idPosition(made), idPosition(theirs));
    assert.deepEqual(await after(theirs), [mine[1]]);
    assert.deepEqual(await after(made), [mine[1]]);
    const conversation = (await svc.api('GET', `/v1/contacts/${mine[0]}`, { token })).body.conversation_id;
    const { status, body } = await svc.api('GET', `/v1/contacts?starting_after=${conversation}`, { token });
    assert.equal(status, 404);
    assert.equal(body.error.param, 'starting_after');
  });
});

describe('ids made before they carried a position', () => {
  /** A folder as an older version left it: contacts with ids of a prefix and sixteen random characters. */
  async function olderFolder(): Promise<{ dataDir: string; token: string; userId: string; ids: string[] }> {
    const dataDir = tempDataDir();
    const svc = await startTestService({ dataDir });
    const token = svc.credentials.accessToken;
    const userId = (await svc.services.users.userOf(token))!.id;
    await svc.close();
    const store = await EmbeddedStore.open(dataDir);
    const contacts = store.memory<any>('contacts');
    const conversations = store.memory<any>('conversations');
    const oldId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replaceAll('-', 'A').replaceAll('_', 'B')}`;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = oldId('ctc');
      const cnv = oldId('cnv');
      const at = Math.floor(Date.now() / 1000);
      conversations.insert({ id: cnv, object: 'conversation', user_id: userId, contact_id: id, group_id: null, pinned_message_id: null, is_pinned: false, is_muted: false, last_active_at: null, last_opened_at: null, created_at: at, archived_at: null });
      contacts.insert({ id, object: 'contact', user_id: userId, username: `old${i}`, phone_number: '+441234567', avatar_url: '', display_name: null, conversation_id: cnv, last_active_at: null, created_at: at });
      assert.equal(idPosition(id), undefined);
      ids.unshift(id);
    }
    await store.close();
    return { dataDir, token, userId, ids };
  }

  test('old and new rows page in creation order; a deleted old cursor pages on after restarts', async () => {
    const { dataDir, token, ids: old } = await olderFolder();
    const first = await startTestService({ dataDir });
    let svc = first;
    const fresh: string[] = [];
    for (let i = 0; i < 3; i++) fresh.unshift(await contact(svc.api, token, `n${i}`));
    const all = [...fresh, ...old];
    assert.deepEqual(await walk(svc.api, token, '/v1/contacts'), all);
    await svc.api('DELETE', `/v1/contacts/${old[2]}`, { token });
    await first.close();
    svc = await startTestService({ dataDir });
    open.push(svc);
    assert.deepEqual(await walk(svc.api, token, '/v1/contacts', old[2]), old.slice(3));
    assert.deepEqual((await svc.api('GET', `/v1/contacts?ending_before=${old[2]}&limit=2`, { token })).body.data.map((c: { id: string }) => c.id), [old[0], old[1]]);
    // Another user's view of that old id: as absent as one that never existed.
    const other = (await svc.services.users.issueToken('trudy')).accessToken;
    for (const cursor of [old[2], old[3], 'ctc_AAAAAAAAAAAAAAAA']) {
      const { status, body } = await svc.api('GET', `/v1/contacts?starting_after=${cursor}`, { token: other });
      assert.equal(status, 404);
      assert.equal(body.error.code, 'resource_missing');
    }
  });
});
