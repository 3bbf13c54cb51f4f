import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
let token: string;
let ids: string[]; // newest first
before(async () => {
  svc = await startTestService();
  token = svc.credentials.accessToken;
  ids = [];
  // Created within the same second or two: order must still be exact.
  for (let i = 0; i < 25; i++) {
    const { body } = await svc.api('POST', '/v1/contacts', { token, form: { username: `p${i}`, phone_number: '+441234567' } });
    ids.unshift(body.id);
  }
});
after(() => svc.close());

const list = async (query: string) => (await svc.api('GET', `/v1/contacts?${query}`, { token })).body;

describe('contact lists', () => {
  test('default page is ten, newest first, with the contract envelope', async () => {
    const page = await list('');
    assert.equal(page.object, 'list');
    assert.equal(page.url, '/v1/contacts');
    assert.equal(page.has_more, true);
    assert.deepEqual(page.data.map((c: any) => c.id), ids.slice(0, 10));
  });

  test('has_more is exact at the boundary', async () => {
    assert.equal((await list('limit=25')).has_more, false);
    assert.equal((await list('limit=24')).has_more, true);
    assert.equal((await list(`limit=5&starting_after=${ids[19]}`)).has_more, false);
    assert.equal((await list(`limit=4&starting_after=${ids[19]}`)).has_more, true);
  });

  test('following starting_after visits every contact exactly once, even while contacts are added', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let added = 0;
    for (;;) {
      const page = await list(`limit=7${cursor ? `&starting_after=${cursor}` : ''}`);
      seen.push(...page.data.map((c: any) => c.id));
      // New contacts appear at the head of the list and must not disturb the walk.
      await svc.api('POST', '/v1/contacts', { token, form: { username: `late${added++}`, phone_number: '+441234567' } });
      if (!page.has_more) break;
      cursor = page.data.at(-1).id;
    }
    assert.deepEqual(seen, ids);
  });

  test('ending_before pages back towards the newest, still newest first', async () => {
    const page = await list(`limit=3&ending_before=${ids[10]}`);
    assert.deepEqual(page.data.map((c: any) => c.id), ids.slice(7, 10));
    assert.equal(page.has_more, true);
  });

  test('a deleted cursor keeps the walk going', async () => {
    const victim = (await svc.api('POST', '/v1/contacts', { token, form: { username: 'victim', phone_number: '+441234567' } })).body;
    const next = (await svc.api('POST', '/v1/contacts', { token, form: { username: 'older', phone_number: '+441234567' } })).body;
    void next;
    await svc.api('DELETE', `/v1/contacts/${victim.id}`, { token });
    const page = await list(`limit=1&starting_after=${victim.id}`);
    assert.equal(page.data.length, 1);
    assert.notEqual(page.data[0].id, victim.id);
  });

  // Ids are opaque: a cursor of an unexpected shape, or of another type, names nothing: a 404 as the Stripe API answers.
  for (const [query, param, status] of [
    ['limit=0', 'limit', 400],
    ['limit=101', 'limit', 400],
    ['limit=ten', 'limit', 400],
    ['starting_after=a&ending_before=b', 'ending_before', 400],
    ['sort=asc', 'sort', 400],
    ['starting_after=%27%3B--', 'starting_after', 404],
    ['ending_before=ctc-not-an-id!', 'ending_before', 404],
    ['starting_after=cnv_8Q7ROvZgncfvLe3PCBdK34Rog', 'starting_after', 404],
  ] as const) {
    test(`${query}: ${status} naming ${param}`, async () => {
      const { status: got, body } = await svc.api('GET', `/v1/contacts?${query}`, { token });
      assert.equal(got, status);
      assert.equal(body.error.param, param);
      if (status === 404) assert.equal(body.error.code, 'resource_missing');
    });
  }
});

describe('conversation lists', () => {
  test('same envelope and cursors', async () => {
    const page = (await svc.api('GET', '/v1/conversations?limit=2', { token })).body;
    assert.equal(page.url, '/v1/conversations');
    assert.equal(page.data.length, 2);
    const next = (await svc.api('GET', `/v1/conversations?limit=2&starting_after=${page.data[1].id}`, { token })).body;
    assert.ok(next.data.every((c: any) => !page.data.some((p: any) => p.id === c.id)));
    assert.ok(next.data[0].created_at <= page.data[1].created_at);
  });
});
