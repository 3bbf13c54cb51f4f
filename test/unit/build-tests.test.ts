/**
 * `npm test` runs the Node suites compiled (scripts/build-tests.mjs): each module must see the
 * address of its source, or every path built from it (the root, dist/, a fixture) moves under .tmp/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { buildTests } from '../../scripts/build-tests.mjs';

const root = resolve(import.meta.dirname, '../..');

describe('the compiled tests', () => {
  it('each module keeps its own address: TypeScript and JavaScript modules, and one loaded by address', async (t) => {
    const out = mkdtempSync(join(tmpdir(), 'cpe-build-tests-'));
    t.after(() => rmSync(out, { recursive: true, force: true }));
    await buildTests({ out, entryPoints: ['test/unit/fixtures/own-address.ts'] });
    // Bare Node: no tsx to compile or find anything.
    const run = spawnSync(process.execPath, [join(out, 'test/unit/fixtures/own-address.js')], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(run.status, 0, run.stderr);
    const source = join(root, 'test/unit/fixtures/own-address.ts');
    assert.deepEqual(JSON.parse(run.stdout), {
      url: pathToFileURL(source).href,
      dirname: join(root, 'test/unit/fixtures'),
      filename: source,
      sdkFile: join(root, 'dist/sdk/cpe.js'),
      lazy: join(root, 'test/unit/fixtures/own-address-lazy.ts'),
    });
  });

  it('npm test runs this file compiled, not through tsx', { skip: process.env.CPE_TEST_COMPILED ? false : 'run alone (CPE_TEST_COMPILED is set by npm test)' }, () => {
    assert.ok(process.argv[1]!.startsWith(process.env.CPE_TEST_COMPILED!), `${process.argv[1]} is not under ${process.env.CPE_TEST_COMPILED}`);
    assert.ok(!process.execArgv.includes('tsx'), process.execArgv.join(' '));
  });
});
