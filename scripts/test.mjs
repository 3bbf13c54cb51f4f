// `npm test`: the type check, the build and the compiled tests (scripts/build-tests.mjs), then
// every suite in lanes that run side by side (the Chromium suites, the end-to-end suite, the Node
// suites; `--postgres` (`.ci/run`) adds a lane with the server and model suites on PostgreSQL). Each
// suite is a package.json script, run with `npm run -s`; its output goes to
// .tmp/test-logs/<suite>.log and is printed whole when the suite ends (so two suites never
// interleave), with its time and the machine's load. Every suite runs even after a failure; the exit
// status is 1 if any failed. `CPE_TEST_JOBS=1` runs the lanes one after the other; names as
// arguments run only those suites (`npm test -- server e2e`).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUT as COMPILED_TESTS } from './build-tests.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const postgres = args.includes('--postgres');
const only = args.filter((a) => !a.startsWith('--'));

/**
 * Suites by lane, in the order each lane runs them. A suite spends most of its time waiting (for a
 * browser, a child process, a database): one e2e file used 22 s of processor in 48 s, so four lanes
 * (and two e2e or server files at a time) keep two cores busy where two lanes left them half idle.
 * Balanced by the times one run printed (load 5, two lanes, one file at a time): components 179 s,
 * security 121 s, package 19 s; e2e 550 s; server 354 s, model 87 s, unit 7 s; server on
 * PostgreSQL 476 s, model 96 s.
 */
const LANES = {
  browser: ['components', 'security', 'package'],
  e2e: ['e2e'],
  node: ['server', 'unit', 'model'],
  ...(postgres ? { postgres: ['server:postgres', 'model:postgres'] } : {}),
};
const known = Object.values(LANES).flat();
for (const name of only) if (!known.includes(name)) fail(`Unknown suite "${name}": one of ${known.join(', ')}.`);
const chosen = (name) => only.length === 0 || only.includes(name);

const logs = join(root, '.tmp', 'test-logs');
mkdirSync(logs, { recursive: true });
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const timeTool = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
/** User plus system seconds from GNU time's output file (its last line; a killed command adds a line before it). */
function cpuSeconds(file) {
  try {
    const [user, system] = readFileSync(file, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    return Number.isFinite(user + system) ? Math.round(user + system) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A failed suite's failing tests and their errors, again at the end: a long log is cut where it is
 * shown, and its failures are the lines worth keeping. web-test-runner marks a failure '❌' with its
 * error on the next lines; node's TAP says 'not ok' with an 'error:' line in its details.
 */
function whatFailed(script, log) {
  const lines = log.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split('\n');
  const picked = [];
  lines.forEach((line, i) => {
    if (/^\s*❌ /.test(line)) picked.push(...lines.slice(i, i + 3));
    else if (/^\s*not ok \d+ - /.test(line)) {
      const details = lines.slice(i + 1, i + 30);
      const at = details.findIndex((next) => /^\s*error: /.test(next));
      // A long error is a YAML block ('error: |-'): its first lines follow.
      const error = at < 0 ? [] : /error: [|>]-?\s*$/.test(details[at]) ? details.slice(at + 1, at + 4) : [details[at]];
      picked.push(line, ...error);
    }
  });
  const unique = [...new Set(picked.map((line) => line.trimEnd()))].slice(0, 40);
  return `What failed in ${script}:\n${unique.length ? unique.map((line) => `  ${line.trim().slice(0, 400)}`).join('\n') : '  (no failing test named: see its log above)'}\n`;
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** Runs `npm run -s <script>`, its output into a log file; resolves with its status and time. */
function run(script) {
  const file = join(logs, `${script.replace(/[:/]/g, '-')}.log`);
  const out = createWriteStream(file);
  const started = Date.now();
  process.stdout.write(`▶ ${script} (load ${load()})\n`);
  return new Promise((resolve) => {
    // GNU time, where there is one, says how much processor the suite used (its waited-for processes):
    // on two cores the lanes share, that, not the wall clock, is what a suite costs the others.
    const cpuFile = `${file}.cpu`;
    const command = timeTool ? [timeTool, '-f', '%U %S', '-o', cpuFile, 'npm', 'run', '-s', script] : ['npm', 'run', '-s', script];
    const child = spawn(command[0], command.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code, signal) => {
      out.end(() => {
        const ms = Date.now() - started;
        const ok = code === 0;
        const cpu = timeTool ? cpuSeconds(cpuFile) : undefined;
        process.stdout.write(`\n──── ${script}: ${ok ? 'passed' : `FAILED (${signal ?? code})`} in ${seconds(ms)} (load ${load()}) ────\n`);
        process.stdout.write(readFileSync(file, 'utf8'));
        process.stdout.write(`──── end of ${script} (${file}) ────\n\n`);
        resolve({ script, ok, ms, file, cpu });
      });
    });
  });
}

const started = Date.now();
process.stdout.write(`Tests on ${process.env.CPE_TEST_JOBS === '1' ? 'one lane' : `${Object.keys(LANES).length} lanes`}; load average ${load()}\n`);
// Side by side: none reads what another writes (tsc reads the sources, vite writes dist/, build:tests .tmp/).
const setup = await Promise.all(['typecheck', 'build', 'build:tests'].map(run));
const results = [...setup];
if (setup.every((r) => r.ok)) {
  // The Node suites run the files build:tests compiled (scripts/node-test.mjs, testkit's serviceEntry).
  process.env.CPE_TEST_COMPILED = COMPILED_TESTS;
  const lane = async (suites) => {
    const done = [];
    for (const suite of suites.filter(chosen)) done.push(await run(`test:${suite}`));
    return done;
  };
  const lanes = Object.values(LANES);
  if (process.env.CPE_TEST_JOBS === '1') for (const suites of lanes) results.push(...(await lane(suites)));
  else results.push(...(await Promise.all(lanes.map(lane))).flat());
}

const failed = results.filter((r) => !r.ok);
process.stdout.write(`Summary (${seconds(Date.now() - started)} in all; load average now ${load()}):\n`);
for (const r of results) process.stdout.write(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.script.padEnd(20)} ${seconds(r.ms).padStart(6)}${r.cpu === undefined ? '' : `  (processor ${r.cpu} s)`}\n`);
for (const r of failed) if (r.file) process.stdout.write(whatFailed(r.script, readFileSync(r.file, 'utf8')));
process.stdout.write(failed.length ? `${failed.length} failed: ${failed.map((r) => r.script).join(', ')}\n` : 'All passed.\n');
process.exit(failed.length ? 1 : 0);
