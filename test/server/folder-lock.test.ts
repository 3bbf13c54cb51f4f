/**
 * The embedded store's folder lock under contention: several processes acquire the locks of many
 * folders at the same instant. Each free folder (no lock, or one left by a dead process, or an empty
 * one abandoned long ago) goes to exactly one of them; a folder whose lock is being made (the file is
 * there, empty, its maker about to write its pid) goes to none. Two winners of one folder would each
 * keep their own copy of its database and lose each other's writes.
 */
import assert from 'node:assert/strict';
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FolderLock } from '../../server/store/folder-lock.ts';

const RACERS = 6;
const PER_KIND = 40;
const base = mkdtempSync(join(tmpdir(), 'cpe-lock-race-'));
after(() => rmSync(base, { recursive: true, force: true }));

type Outcome = { dir: string; won: boolean; error?: string };
type Message = { type: 'ready' } | { type: 'first' | 'done'; outcomes: Outcome[] };

/** A process id that belonged to a process which has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

function folders(kind: string, prepare: (lock: string) => void = () => {}): string[] {
  return Array.from({ length: PER_KIND }, (_, i) => {
    const dir = join(base, `${kind}-${i}`);
    mkdirSync(dir);
    prepare(join(dir, 'store.lock'));
    return dir;
  });
}

test(`${RACERS} processes racing for the locks of ${PER_KIND * 4} folders: one winner for each free folder, none for a lock being made`, async () => {
  const fresh = folders('fresh');
  const stale = folders('stale', (lock) => writeFileSync(lock, `${deadPid()}\n`));
  const abandoned = folders('abandoned', (lock) => {
    writeFileSync(lock, '');
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, longAgo, longAgo);
  });
  const beingMade = folders('being-made');
  const free = [...fresh, ...stale, ...abandoned];

  const racers: { proc: ChildProcess; messages: Message[]; next(type: Message['type']): Promise<Message> }[] = [];
  for (let i = 0; i < RACERS; i++) {
    const proc = fork(join(import.meta.dirname, 'fixtures/lock-racer.ts'), {
      execArgv: ['--import', 'tsx'],
      // Each racer tries the folders in its own order, so every pair meets at every step.
      env: { ...process.env, RACE_FOLDERS: JSON.stringify({ folders: i % 2 ? [...free].reverse() : free, beingMade }) },
    });
    const messages: Message[] = [];
    const wakers = new Set<() => void>();
    proc.on('message', (message: Message) => {
      messages.push(message);
      for (const wake of wakers) wake();
    });
    const next = (type: Message['type']) =>
      new Promise<Message>((resolve, reject) => {
        const check = () => {
          const found = messages.find((m) => m.type === type);
          if (found) (wakers.delete(check), resolve(found));
        };
        proc.once('exit', (code) => reject(new Error(`racer exited (${code}) before '${type}'`)));
        wakers.add(check);
        check();
      });
    racers.push({ proc, messages, next });
  }
  try {
    await Promise.all(racers.map((r) => r.next('ready')));
    // The locks being made: created empty now, as their maker (this process) does before writing its pid.
    for (const dir of beingMade) writeFileSync(join(dir, 'store.lock'), '');
    for (const racer of racers) racer.proc.send('go');

    const first = await Promise.all(racers.map((r) => r.next('first')));
    // Every racer has met the empty locks by now and is waiting on them: the maker writes its pid.
    for (const dir of beingMade) writeFileSync(join(dir, 'store.lock'), `${process.pid}\n`);
    const done = await Promise.all(racers.map((r) => r.next('done')));

    const outcomes = [...first, ...done].flatMap((m) => (m.type === 'ready' ? [] : m.outcomes));
    assert.deepEqual(outcomes.filter((o) => o.error), [], 'every refusal names the owner');
    const winners = (dir: string) => outcomes.filter((o) => o.dir === dir && o.won).length;
    const wrong = [...free.filter((dir) => winners(dir) !== 1), ...beingMade.filter((dir) => winners(dir) !== 0)].map((dir) => `${dir}: ${winners(dir)} winners`);
    assert.deepEqual(wrong, [], `${wrong.length} folders without exactly the right number of winners`);
  } finally {
    for (const racer of racers) if (racer.proc.connected) racer.proc.send('exit');
    await Promise.all(racers.map((r) => (r.proc.exitCode === null ? new Promise((resolve) => r.proc.once('exit', resolve)) : undefined)));
  }
});

test('a lock is released to the next process, and a second open in one process shares it', async () => {
  const dir = join(base, 'reopen');
  mkdirSync(dir);
  const [a, b] = await Promise.all([FolderLock.acquire(dir), FolderLock.acquire(dir)]);
  a.release();
  const other = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import('${join(import.meta.dirname, '../../server/store/folder-lock.ts')}').then(({ FolderLock }) => FolderLock.acquire(${JSON.stringify(dir)})).then(() => console.log('won'), (e) => console.log(e.message))`], { encoding: 'utf8' });
  assert.match(other.stdout, new RegExp(`in use by process ${process.pid}`), 'still held after one of two releases');
  b.release();
  const after = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import('${join(import.meta.dirname, '../../server/store/folder-lock.ts')}').then(({ FolderLock }) => FolderLock.acquire(${JSON.stringify(dir)})).then(() => console.log('won'), (e) => console.log(e.message))`], { encoding: 'utf8' });
  assert.equal(after.stdout.trim(), 'won');
});
