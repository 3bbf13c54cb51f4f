/** scripts/node-test.mjs: a test file that fails with a handle left open ends, and says it failed. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { scaled } from '../../testkit/time.ts';

const root = resolve(import.meta.dirname, '../..');

test('a file whose failed test left a server open still ends, with status 1', async () => {
  // From source (no CPE_TEST_COMPILED): the fixture is not among the compiled files. Without this
  // runner's NODE_TEST_CONTEXT, or the inner runner skips its files as a run inside a test.
  const env: NodeJS.ProcessEnv = { ...process.env, CPE_TEST_COMPILED: '' };
  delete env.NODE_TEST_CONTEXT;
  // Its own process group, so that the backstop ends the runner it starts as well.
  const child = spawn(process.execPath, ['scripts/node-test.mjs', 'test/unit/fixtures/open-handle.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // Only a backstop: the run ends on its own in about a second.
  const backstop = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), scaled(60_000));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('close', (c, s) => done([c, s])));
  clearTimeout(backstop);
  assert.equal(signal, null, `the run hung and was killed after 60 s:\n${output}`);
  assert.equal(code, 1, output);
  assert.match(output, /failed before its cleanup/);
});
