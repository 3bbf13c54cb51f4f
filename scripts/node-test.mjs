// `node scripts/node-test.mjs [flags for node --test…] <test files or folders…>`: Node's test runner
// over the given test files (a folder: every *.test.ts in it, sorted). Under `npm test`, which has
// compiled them (CPE_TEST_COMPILED, scripts/build-tests.mjs), it runs the compiled files with bare
// Node; otherwise the sources through tsx, as `node --import tsx --test` would. Exits as the runner does.
//
// A file's process exits once its tests end (--test-force-exit), even if a failed test left a server
// or a connection open: without it that process, and its whole suite, waited forever. And a test
// that never settles is cut at 15 minutes (times CPE_TEST_TIME_SCALE) unless the flags set another.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = process.env.CPE_TEST_COMPILED;
const args = process.argv.slice(2);
const given = args.filter((arg) => arg.startsWith('--'));
const BACKSTOP_MS = 900_000 * Number(process.env.CPE_TEST_TIME_SCALE || 1);
const flags = ['--test-force-exit', ...(given.some((flag) => flag.startsWith('--test-timeout')) ? [] : [`--test-timeout=${BACKSTOP_MS}`]), ...given];
const files = args
  .filter((arg) => !arg.startsWith('--'))
  .flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true })
          .filter((name) => name.endsWith('.test.ts'))
          .map((name) => join(path, name))
          .sort()
      : [path],
  );
const runArgs = compiled
  ? ['--enable-source-maps', '--test', ...flags, ...files.map((file) => join(compiled, relative(root, resolve(file)).replace(/\.ts$/, '.js')))]
  : ['--import', 'tsx', '--test', ...flags, ...files];

const child = spawn(process.execPath, runArgs, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
