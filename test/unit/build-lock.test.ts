/**
 * Test files start stacks two at a time, and each builds the browser code when a source is newer
 * than dist/: two `vite build`s at once emptied each other's dist/ (a wallet sheet's page named an
 * asset that was gone). `locked` lets one process build at a time; the others wait, then find it built.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { locked, takeOver } from '../../scripts/ensure-built.mjs';

const module = pathToFileURL(resolve(import.meta.dirname, '../../scripts/ensure-built.mjs')).href;

/** A process that, holding `lock`, writes "start <pid>", holds it 300 ms, then writes "end <pid>". */
function holder(lock: string, log: string): Promise<number> {
  const script = `
    import { appendFileSync } from 'node:fs';
    const { locked } = await import(${JSON.stringify(module)});
    locked(() => {
      appendFileSync(${JSON.stringify(log)}, 'start ' + process.pid + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      appendFileSync(${JSON.stringify(log)}, 'end ' + process.pid + '\\n');
    }, ${JSON.stringify(lock)});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
  return new Promise((done, fail) => child.on('exit', (code) => (code === 0 ? done(child.pid!) : fail(new Error(`holder exited ${code}`)))));
}

describe('the build lock', () => {
  it('three processes at once: each holds it in turn, never two together', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cpe-build-lock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const log = join(dir, 'log');
    writeFileSync(log, '');
    const pids = await Promise.all([0, 1, 2].map(() => holder(join(dir, 'lock'), log)));
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    assert.equal(lines.length, 6, lines.join(', '));
    for (let i = 0; i < 6; i += 2) {
      const [start, end] = [lines[i]!.split(' '), lines[i + 1]!.split(' ')];
      assert.deepEqual([start[0], end[0], start[1]], ['start', 'end', end[1]], `in turn: ${lines.join(', ')}`);
    }
    assert.deepEqual(lines.filter((l) => l.startsWith('start')).map((l) => Number(l.split(' ')[1])).sort(), [...pids].sort());
  });

  /** The pid of a process that has exited. */
  const gonePid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

  it('a lock left by a process that has gone is taken over', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cpe-build-lock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'lock'), String(gonePid()));
    assert.equal(locked(() => 'built', join(dir, 'lock')), 'built');
    assert.equal(existsSync(join(dir, 'lock')), false, 'released after the build');
  });

  it("a waiter that saw the dead holder late does not remove the lock another process has taken since", (t) => {
    // Two waiters see the same dead holder; the first takes the lock over and holds it (here, this
    // process). The second acts on what it saw: it must leave the new holder's lock alone.
    const dir = mkdtempSync(join(tmpdir(), 'cpe-build-lock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const lock = join(dir, 'lock');
    const dead = gonePid();
    writeFileSync(lock, String(process.pid));
    takeOver(lock, dead);
    assert.equal(readFileSync(lock, 'utf8'), String(process.pid), "the live holder's lock is still there");
  });

  it('a waiter does not take over while another holds the claim to, and a dead claimant passes it on', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cpe-build-lock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const lock = join(dir, 'lock');
    const dead = gonePid();
    writeFileSync(lock, String(dead));
    writeFileSync(`${lock}.takeover-${dead}`, String(process.pid));
    takeOver(lock, dead);
    assert.equal(readFileSync(lock, 'utf8'), String(dead), 'a live claimant is left to remove it');
    writeFileSync(`${lock}.takeover-${dead}`, String(gonePid()));
    takeOver(lock, dead);
    assert.equal(existsSync(lock), false, "a dead claimant's claim is passed on, and the dead holder's lock removed");
  });
});
