/**
 * The test kit itself (testkit/): waits that hear every line and end when the child does, ports
 * bound before anyone learns them, the one time scale, replayable seeds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { boundSocket, handSocket, spawnNode } from '../../testkit/processes.ts';
import { seeded } from '../../testkit/seed.ts';
import { withTimeout } from '../../testkit/wait.ts';

const root = resolve(import.meta.dirname, '../..');
const node = (name: string, script: string, keepBytes?: number) => spawnNode(name, ['-e', script], { cwd: root, keepBytes });

describe('testkit', () => {
  it('a line is heard however much output came before it (no cut buffer)', async () => {
    // 200 KB of noise, kept only 1 KB of: the line comes after what is kept.
    const child = node('chatty', `process.stdout.write('x'.repeat(1000) + '\\n' + ('y'.repeat(99) + '\\n').repeat(2000)); console.log('ready on 1234'); setInterval(() => {}, 1e9)`, 1024);
    const wait = child.line(/^ready on (\d+)$/);
    assert.equal((await wait)[1], '1234');
    child.proc.kill();
  });

  it("a wait ends at once with the child's output when the child exits without the line", async () => {
    const child = node('quitter', `console.error('cannot start: broken'); process.exit(3)`);
    // Its exit ends the wait (a deadline would say "not within"), with the output that says why.
    await assert.rejects(child.line(/never/, 600_000), /quitter exited \(3\) before a line matching \/never\/:\ncannot start: broken/);
  });

  it('a line already printed before the wait began is found too', async () => {
    const child = node('early', `console.log('early bird'); process.send({ type: 'done' }); setInterval(() => {}, 1e9)`);
    await child.message((m): m is { type: 'done' } => (m as { type?: string }).type === 'done', 'done');
    assert.equal((await child.line(/early (\w+)/))[1], 'bird');
    child.proc.kill();
  });

  it('a socket bound on port 0 and handed to a child: a request sent before the child took it is answered', async () => {
    const { server, port } = await boundSocket();
    const early = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    const child = node('handed', `process.once('message', (_, socket) => require('node:http').createServer((q, r) => r.end('served by ' + process.pid)).listen(socket))`);
    await handSocket(child.proc, server);
    assert.equal(await withTimeout(early, 30_000, 'the early request'), `served by ${child.proc.pid}`);
    child.proc.kill();
  });

  it('CPE_TEST_TIME_SCALE multiplies every timeout, and a bad value is refused', () => {
    const scaledIn = (value: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./testkit/time.ts').then((t) => console.log(t.scaled(1000)))"], { cwd: root, env: { ...process.env, CPE_TEST_TIME_SCALE: value }, encoding: 'utf8' });
    assert.equal(scaledIn('').stdout.trim(), '1000');
    assert.equal(scaledIn('2.5').stdout.trim(), '2500');
    assert.match(scaledIn('fast').stderr, /CPE_TEST_TIME_SCALE is a positive number/);
  });

  it('a seed replays the same choices', () => {
    const saved = process.env.CPE_TEST_SEED;
    try {
      process.env.CPE_TEST_SEED = '12345';
      const a = seeded('first');
      const b = seeded('second');
      assert.equal(a.seed, 12345);
      assert.deepEqual(Array.from({ length: 5 }, () => a.int(0, 1000)), Array.from({ length: 5 }, () => b.int(0, 1000)));
    } finally {
      if (saved === undefined) delete process.env.CPE_TEST_SEED;
      else process.env.CPE_TEST_SEED = saved;
    }
  });
});
