import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { newId } from '../../server/identity/secrets.ts';
import { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { CursorNotFound } from '../../server/store/store.ts';
import { readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';

interface Item {
  id: string;
  owner: string;
  tag: string;
}

describe('IndexedCollection', () => {
  test('pages newest first by index key, and moves rows between keys on update', async () => {
    const store = await EmbeddedStore.open();
    const items = store.memory<Item>('items', { owner: (r) => r.owner, tag: (r) => `${r.owner}:${r.tag}` });
    for (let i = 0; i < 10; i++) items.insert({ id: `i${i}`, owner: i % 2 ? 'odd' : 'even', tag: 'a' });
    assert.deepEqual(items.page('owner', 'odd', { limit: 2 }).data.map((r) => r.id), ['i9', 'i7']);
    assert.deepEqual(items.page('owner', 'odd', { limit: 2, startingAfter: 'i7' }).data.map((r) => r.id), ['i5', 'i3']);
    items.update('i5', { tag: 'b' });
    assert.deepEqual(items.find('tag', 'odd:b').map((r) => r.id), ['i5']);
    assert.equal(items.count('tag', 'odd:a'), 4);
    assert.deepEqual(items.page('tag', 'odd:a', { limit: 10, startingAfter: 'i5' }, { index: 'owner', key: 'odd' }).data.map((r) => r.id), ['i3', 'i1']);
    assert.throws(() => items.page('owner', 'odd', { limit: 1, startingAfter: 'i2' }), CursorNotFound, 'a row of another list is no cursor');
    items.delete('i3');
    assert.throws(() => items.page('owner', 'odd', { limit: 5, startingAfter: 'i3' }), CursorNotFound, 'an id of no known shape is no cursor once deleted');
    assert.equal(items.get('i3'), undefined);
    assert.equal(items.get('__proto__'), undefined);
  });

  test('a cursor is decoded to its place: deletes leave no memory, but for ids made before positions', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items', { owner: (r) => r.owner });
    const ids = Array.from({ length: 6 }, () => newId('itm'));
    for (const id of ids) items.insert({ id, owner: 'o', tag: 't' });
    for (const id of ids.slice(1, 5)) items.delete(id);
    assert.deepEqual(items.page('owner', 'o', { limit: 5, startingAfter: ids[3] }).data.map((r) => r.id), [ids[0]]);
    assert.deepEqual(items.page('owner', 'o', { limit: 5, endingBefore: ids[2] }).data.map((r) => r.id), [ids[5]]);
    // Rows whose ids are hashes (idempotency records, tokens' hashes) are never cursors: their deletes keep nothing.
    items.insert({ id: 'f'.repeat(64), owner: 'o', tag: 't' });
    items.delete('f'.repeat(64));
    await store.close();
    assert.equal((await readDataFolder(dir)).collections['items.deleted_cursors'], undefined, 'no record of deletes');
    // An id of the shape made before positions: its place is kept once deleted, across a restart.
    const again = await EmbeddedStore.open(dir);
    const older = again.memory<Item>('older', { owner: (r) => r.owner });
    for (const id of ['itm_AAAAAAAAAAAAAAA1', 'itm_AAAAAAAAAAAAAAA2', 'itm_AAAAAAAAAAAAAAA3']) older.insert({ id, owner: 'o', tag: 't' });
    older.delete('itm_AAAAAAAAAAAAAAA2');
    await again.close();
    const third = await EmbeddedStore.open(dir);
    const reopened = third.memory<Item>('older', { owner: (r) => r.owner });
    assert.deepEqual(reopened.page('owner', 'o', { limit: 5, startingAfter: 'itm_AAAAAAAAAAAAAAA2' }).data.map((r) => r.id), ['itm_AAAAAAAAAAAAAAA1']);
    assert.throws(() => reopened.page('owner', 'other', { limit: 5, startingAfter: 'itm_AAAAAAAAAAAAAAA2' }), CursorNotFound, 'only in its own list');
    await third.close();
  });

  test('rows handed out cannot be changed in place, nested values included; update() still works', async () => {
    const store = await EmbeddedStore.open();
    const items = store.memory<Item & { nested: { list: string[] } }>('items', { owner: (r) => r.owner });
    const inserted = items.insert({ id: 'x', owner: 'o', tag: 't', nested: { list: ['a'] } });
    for (const row of [inserted, items.get('x')!, items.find('owner', 'o')[0], items.page('owner', 'o', { limit: 1 }).data[0]]) {
      assert.throws(() => ((row as Item).tag = 'changed'), TypeError);
      assert.throws(() => row.nested.list.push('b'), TypeError);
    }
    assert.equal(items.update('x', { tag: 'u' }).tag, 'u');
    assert.equal(items.get('x')!.tag, 'u');
    assert.ok(Object.isFrozen(items.get('x')));
  });
});

describe('EmbeddedStore', () => {
  test('concurrent commits share file writes, and the file holds them all', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items', { owner: (r) => r.owner });
    const commits = [];
    for (let i = 0; i < 200; i++) {
      items.insert({ id: `i${i}`, owner: 'o', tag: 't' });
      commits.push(store.commit());
    }
    await Promise.all(commits);
    // All 200 callers gathered before the first write started: one write serves them all.
    assert.equal(store.writes, 1);
    const data = await readDataFolder(dir);
    assert.equal(Object.keys(data.collections.items).length, 200);
    const log = join(dir, 'cpe.000000.log');
    assert.equal(statSync(log).mode & 0o777, 0o600, 'the log is private to its owner');
    const reopened = await EmbeddedStore.open(dir);
    const again = reopened.memory<Item>('items', { owner: (r) => r.owner });
    assert.deepEqual(again.page('owner', 'o', { limit: 3 }).data.map((r) => r.id), ['i199', 'i198', 'i197']);
  });

  test('commits arriving during a write are grouped into the next one', async () => {
    const store = await EmbeddedStore.open(tempDataDir());
    const items = store.memory<Item>('items');
    items.insert({ id: 'first', owner: 'o', tag: 't' });
    const first = store.commit();
    const later = [];
    for (let i = 0; i < 50; i++) {
      items.insert({ id: `later${i}`, owner: 'o', tag: 't' });
      later.push(store.commit());
    }
    await Promise.all([first, ...later]);
    assert.ok(store.writes <= 2, `${store.writes} writes for 51 commits`);
  });

  test('a commit with nothing to write resolves without writing the file', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    let resolved = false;
    const commit = store.commit().then(() => (resolved = true));
    // Resolved before any file work could have run (a write waits for setImmediate first).
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(resolved, true);
    await commit;
    assert.equal(store.writes, 0);
    assert.equal(existsSync(join(dir, 'cpe.json')), false);
    await store.close();
  });
});

describe('EmbeddedStore transactions', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  test("a call of another request waits while a write transaction is half done, and sees it whole", async () => {
    const store = await EmbeddedStore.open();
    const items = store.collection<Item>('items', { owner: (r) => r.owner });
    const between = gate();
    const halfDone = gate();
    const write = store.transaction(async () => {
      await items.insert({ id: 'a', owner: 'o', tag: 't' });
      halfDone.open();
      await between.opened;
      await items.insert({ id: 'b', owner: 'o', tag: 't' });
    });
    await halfDone.opened;
    const seen: string[][] = [];
    const read = store.transaction(async () => {
      seen.push((await items.page('owner', 'o', { limit: 10 })).data.map((r) => r.id));
    }, { readOnly: true });
    const bare = items.count('owner', 'o');
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assert.deepEqual(seen, [], 'the read waits for the write to end');
    between.open();
    await Promise.all([write, read]);
    assert.deepEqual(seen, [['b', 'a']]);
    assert.equal(await bare, 2);
  });

  test('writes run one at a time; calls inside a write (nested transactions too) go ahead at once', async () => {
    const store = await EmbeddedStore.open();
    const items = store.collection<Item>('items', { owner: (r) => r.owner });
    const order: string[] = [];
    const between = gate();
    const first = store.transaction(async () => {
      order.push('first:start');
      await store.transaction(async () => {
        await items.insert({ id: 'nested', owner: 'o', tag: 't' });
      }, { readOnly: true });
      await between.opened;
      order.push('first:end');
    });
    const second = store.transaction(async () => {
      order.push('second');
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    between.open();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['first:start', 'first:end', 'second']);
    assert.ok(await items.get('nested'));
  });

  test('a write made inside a read-only transaction takes its own turn (a browser session starting on a GET)', async () => {
    const store = await EmbeddedStore.open();
    const items = store.collection<Item>('items', { owner: (r) => r.owner });
    const got = await store.transaction(async () => {
      await store.transaction(async () => {
        await items.insert({ id: 'started', owner: 'o', tag: 't' });
      });
      return items.get('started');
    }, { readOnly: true });
    assert.equal(got?.id, 'started');
  });

  test('reads pay no AsyncLocalStorage hook: it is on only while a write runs', async (t) => {
    // Node 20 runs a hook for every promise made while any AsyncLocalStorage is on, which gives the
    // promise the storage's kResourceStore; a Node with AsyncContextFrame gives none, and has no such cost.
    const marked = () => Object.getOwnPropertySymbols(Promise.resolve()).some((symbol) => symbol.description === 'kResourceStore');
    const store = await EmbeddedStore.open();
    const items = store.collection<Item>('items', { owner: (r) => r.owner });
    let during = false;
    await store.transaction(async () => {
      await items.insert({ id: 'a', owner: 'o', tag: 't' });
      during = marked();
    });
    if (!during) return t.skip('this Node marks no promise: there is no hook to switch off');
    assert.equal((await store.transaction(() => items.get('a'), { readOnly: true }))?.id, 'a');
    // Node switches the hook off one microtask after the last storage goes off.
    await Promise.resolve();
    assert.equal(marked(), false, 'off once the write is over, and a read does not turn it on');
  });
});
