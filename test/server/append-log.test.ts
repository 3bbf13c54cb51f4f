import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { startServiceChild, stop } from '../../testkit/processes.ts';
import { readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';
import { seeded } from '../../testkit/seed.ts';
import { scaled } from '../../testkit/time.ts';
import { embeddedOnly } from '../helpers/service.ts';

interface Item {
  id: string;
  n: number;
  pad?: string;
}

const files = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('cpe.')).sort();

describe('the append log', embeddedOnly, () => {
  test('a commit appends only what it changed: the bytes written do not grow with the database', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items');
    for (let i = 0; i < 5000; i++) items.insert({ id: `i${i}`, n: i, pad: 'x'.repeat(100) });
    await store.commit();
    const log = join(dir, 'cpe.000000.log');
    const before = statSync(log).size;
    items.update('i7', { n: -7 });
    items.delete('i8');
    await store.commit();
    const added = statSync(log).size - before;
    assert.ok(added < 400, `one update and one delete appended ${added} bytes`);
    await store.close();
    const data = await readDataFolder(dir);
    assert.equal(data.collections.items.i7.n, -7);
    assert.equal(data.collections.items.i8, undefined);
    assert.equal(Object.keys(data.collections.items).length, 4999);
  });

  test('a torn last record is cut off on start, and everything before it is kept', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items');
    items.insert({ id: 'kept', n: 1 });
    await store.commit();
    await store.close();
    const log = join(dir, 'cpe.000000.log');
    const good = statSync(log).size;
    // Half a record, as a kill in the middle of an append leaves it.
    appendFileSync(log, '0badc0de {"s":9,"c":{"items":{"lost":{"id":"lost","n":2');
    const reopened = await EmbeddedStore.open(dir);
    assert.equal(reopened.log?.discarded, 1);
    assert.equal(statSync(log).size, good, 'the torn tail is truncated');
    const again = reopened.memory<Item>('items');
    assert.equal(again.get('kept')?.n, 1);
    assert.equal(again.get('lost'), undefined);
    // And the log goes on from there.
    again.insert({ id: 'after', n: 3 });
    await reopened.close();
    assert.equal((await readDataFolder(dir)).collections.items.after.n, 3);
  });

  test('a damaged record (bad checksum) ends the replay there, as a torn one does', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items');
    items.insert({ id: 'a', n: 1 });
    await store.commit();
    items.insert({ id: 'b', n: 2 });
    await store.close();
    const log = join(dir, 'cpe.000000.log');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1].replace('"n":2', '"n":3');
    writeFileSync(log, lines.join('\n'));
    const data = await readDataFolder(dir);
    assert.equal(data.collections.items.a.n, 1);
    assert.equal(data.collections.items.b, undefined);
  });

  test('compaction writes a snapshot and drops the logs it includes; the data is the same before and after', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items', { even: (r) => String(r.n % 2 === 0) });
    for (let i = 0; i < 300; i++) items.insert({ id: `i${i}`, n: i });
    await store.commit();
    items.delete('i3');
    await store.compact();
    assert.ok(!files(dir).includes('cpe.000000.log'), `the included log is gone: ${files(dir)}`);
    const lines = readFileSync(join(dir, 'cpe.snapshot'), 'utf8').trim().split('\n');
    assert.deepEqual(JSON.parse(lines[0]), { version: 3, log: 1, seq: 300 });
    assert.equal(lines.filter((l) => l.startsWith('items\t')).length, 299);
    assert.deepEqual(JSON.parse(lines.at(-1)!), { rows: 299 });
    items.update('i4', { n: 40 });
    await store.close();
    const reopened = await EmbeddedStore.open(dir);
    const again = reopened.memory<Item>('items', { even: (r) => String(r.n % 2 === 0) });
    assert.equal(again.get('i4')?.n, 40);
    assert.equal(again.get('i3'), undefined);
    assert.deepEqual(again.page('even', 'true', { limit: 2 }).data.map((r) => r.id), ['i298', 'i296']);
    // New rows keep sorting after the old ones: the row counter survived the snapshot and the log.
    again.insert({ id: 'new', n: 1000 });
    assert.deepEqual(again.page('even', 'true', { limit: 1 }).data.map((r) => r.id), ['new']);
    await reopened.close();
  });

  test('a log that outgrows the live data is compacted by itself', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items');
    items.insert({ id: 'hot', n: 0, pad: 'x'.repeat(1000) });
    // One small row rewritten again and again: the log grows, the live data does not.
    for (let i = 1; i <= 1500; i++) {
      items.update('hot', { n: i });
      await store.commit();
    }
    await store.close();
    assert.ok((store.log?.compactions ?? 0) >= 1, 'compacted');
    assert.ok(statSync(join(dir, 'cpe.snapshot')).size < 10_000);
    assert.equal((await readDataFolder(dir)).collections.items.hot.n, 1500);
  });

  test('a version 2 snapshot (one row object per line) and its log still open; the next compaction writes version 3', async () => {
    const dir = tempDataDir();
    const rows = [
      { id: 'a', n: 1, _seq: 1 },
      { id: 'b', n: 2, nested: { list: ['x'] }, _seq: 2 },
      { id: 'c', n: 3, _seq: 3 },
    ];
    writeFileSync(join(dir, 'cpe.snapshot'), [JSON.stringify({ version: 2, log: 4, seq: 3 }), ...rows.map((r) => `items\t${JSON.stringify(r)}`), JSON.stringify({ rows: 3 }), ''].join('\n'));
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item & { nested?: { list: string[] } }>('items', { all: () => 'all' });
    assert.deepEqual(items.get('b'), rows[1]);
    assert.ok(Object.isFrozen(items.get('b')!.nested), 'rows read from a version 2 snapshot are frozen too');
    items.delete('a');
    items.insert({ id: 'd', n: 4 });
    await store.commit();
    assert.deepEqual(files(dir), ['cpe.000004.log', 'cpe.snapshot'], 'the log goes on from the number the snapshot names');
    assert.deepEqual(items.page('all', 'all', { limit: 10 }).data.map((r) => r.id), ['d', 'c', 'b']);
    await store.compact();
    assert.equal(JSON.parse(readFileSync(join(dir, 'cpe.snapshot'), 'utf8').split('\n')[0]).version, 3);
    await store.close();
    const data = await readDataFolder(dir);
    assert.deepEqual(Object.keys(data.collections.items), ['b', 'c', 'd']);
    assert.deepEqual(data.collections.items.b, rows[1]);
    assert.equal(data.collections.items.d._seq, 4);
  });

  test('a version 3 snapshot keeps each row as it was: key order, nested values, fields set to undefined left out', async () => {
    const dir = tempDataDir();
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item & { nested?: unknown; gone?: string; text?: string }>('items');
    items.insert({ id: 'x', n: 1, nested: { deep: [1, { two: null }] }, text: 'tab\tnewline\n"quote" é ✓' });
    items.insert({ id: 'y', n: 2, gone: undefined });
    items.insert({ id: 'z', pad: 'p', n: 3 });
    await store.compact();
    await store.close();
    const data = await readDataFolder(dir);
    assert.deepEqual(data.collections.items.x, { id: 'x', n: 1, nested: { deep: [1, { two: null }] }, text: 'tab\tnewline\n"quote" é ✓', _seq: 1 });
    assert.deepEqual(Object.keys(data.collections.items.y), ['id', 'n', '_seq']);
    assert.deepEqual(Object.keys(data.collections.items.z), ['id', 'pad', 'n', '_seq']);
  });

  test('a data folder from before the log (cpe.json alone) opens, is migrated to a snapshot, and keeps working', async () => {
    const dir = tempDataDir();
    writeFileSync(join(dir, 'cpe.json'), JSON.stringify({ version: 1, seq: 2, collections: { items: { a: { id: 'a', n: 1, _seq: 1 }, b: { id: 'b', n: 2, _seq: 2 } } } }));
    const store = await EmbeddedStore.open(dir);
    const items = store.memory<Item>('items', { all: () => 'all' });
    assert.equal(items.get('b')?.n, 2);
    assert.deepEqual(files(dir), ['cpe.snapshot'], 'migrated on start');
    items.insert({ id: 'c', n: 3 });
    await store.close();
    const data = await readDataFolder(dir);
    assert.deepEqual(Object.keys(data.collections.items), ['a', 'b', 'c']);
    assert.equal(data.collections.items.c._seq, 3);
  });
});

describe('crashes', embeddedOnly, () => {
  /**
   * The real service, killed with SIGKILL during a burst of durable creates, round after round on
   * the same folder (whose log is small, so compactions run during the bursts too): every
   * acknowledged contact is there after each restart, and the service always starts. Writers keep
   * creates in flight until the kill: in even rounds it comes the moment a compaction starts writing
   * its snapshot (however long that takes to come), in odd rounds after a seeded count of answers
   * (the seed is printed; CPE_TEST_SEED replays it).
   */
  test('kill -9 during appends and compactions, many times: every acknowledged row survives', async () => {
    const random = seeded('append-log crash test');
    const dir = tempDataDir();
    const root = join(import.meta.dirname, '../..');
    const acknowledged = new Set<string>();
    let killedDuringCompaction = 0;
    for (let round = 0; round < 8; round++) {
      // A small compaction threshold, so that compactions start while the writers run.
      const service = await startServiceChild(root, dir, { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn', CPE_COMPACT_MIN_BYTES: '65536' });
      const auth = { authorization: `Bearer ${service.credentials.accessToken}`, 'content-type': 'application/json' };
      for (const id of acknowledged) {
        if (!id.endsWith(`:${round - 1}`)) continue;
        const r = await fetch(`${service.url}/v1/contacts/${id.split(':')[0]}`, { headers: auth });
        assert.equal(r.status, 200, `acknowledged contact ${id} is back after the kill`);
        await r.arrayBuffer();
      }
      // Large rows, so that the log soon outgrows the snapshot.
      const pad = 'p'.repeat(1500);
      const atCompaction = round % 2 === 0;
      const killAfter = random.int(20, 140);
      let answered = 0;
      let stopped = false;
      let kill!: (why: string) => void;
      const killed = new Promise<string>((resolve) => (kill = resolve));
      // A compaction writes its snapshot to a temporary file first: the kill comes as it appears.
      const watcher = watch(dir, (_, name) => atCompaction && name === '.cpe.snapshot.tmp' && kill('compaction'));
      // Writers that keep creates in flight until the kill: as many as it takes for a compaction.
      const writer = async (w: number) => {
        for (let i = 0; !stopped; i++) {
          const id = await fetch(`${service.url}/v1/contacts`, { method: 'POST', headers: auth, body: JSON.stringify({ username: `r${round}_${w}_${i}`, phone_number: '+441234567', avatar_url: `https://example.com/${pad}` }), signal: AbortSignal.timeout(scaled(30_000)) })
            .then(async (r) => (r.status === 200 ? ((await r.json()) as { id: string }).id : undefined))
            .catch(() => ((stopped = true), undefined));
          if (id) acknowledged.add(`${id}:${round}`);
          if (++answered >= killAfter && !atCompaction) kill('answers');
        }
      };
      const writers = Array.from({ length: 40 }, (_, w) => writer(w));
      // Writers that stop on their own (a request failed): the round ends, and says why.
      void Promise.all(writers).then(() => kill('the writers stopped'));
      const why = await killed;
      service.proc.kill('SIGKILL');
      watcher.close();
      stopped = true;
      if (why === 'compaction') killedDuringCompaction++;
      await Promise.all(writers);
      await stop(service);
      // The files alone, as the next start will read them: every acknowledged row of every round.
      const data = await readDataFolder(dir);
      for (const id of acknowledged) assert.ok(data.collections.contacts[id.split(':')[0]], `acknowledged ${id} is on disk`);
    }
    assert.ok(acknowledged.size > 100, `${acknowledged.size} writes were acknowledged before the kills`);
    assert.equal(killedDuringCompaction, 4, 'every even round was killed as a compaction started');
  });
});
