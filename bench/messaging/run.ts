/**
 * Messaging benchmark: list and durable create throughput and p99 of the CPE service at 1,000 and
 * 10,000 contacts, side by side with json-server 0.17.4 serving the same contacts, and CPE's list beside
 * the framework's ceiling (bare Koa answering the same page from a string it holds) in alternating rounds.
 *
 *   npm run -s bench:messaging [-- --duration 10 --connections 50 --sizes 1000,10000]
 *   (or BENCH_DURATION, BENCH_CONNECTIONS, BENCH_SIZES, BENCH_TIMEOUT)
 *
 * Both servers are child processes (`node --import tsx scripts/start.ts` and json-server's own CLI);
 * autocannon runs in this process; all traffic stays on 127.0.0.1. Prints a markdown table and the
 * target checks, and writes everything to bench/results/messaging-<date>.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { load, loadSideBySide, type LoadResult } from './load.ts';
import { guardChildren, killAll, stop } from '../../testkit/processes.ts';
import { startBareKoa, startCpe, startJsonServer } from './procs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    connections: { type: 'string' },
    sizes: { type: 'string' },
    timeout: { type: 'string' },
  },
});
const num = (flag: string | undefined, env: string | undefined, fallback: number) => {
  const n = Number(flag ?? env);
  return (flag ?? env) !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
};
const duration = num(flags.duration, process.env.BENCH_DURATION, 10);
const connections = num(flags.connections, process.env.BENCH_CONNECTIONS, 50);
const timeoutSeconds = num(flags.timeout, process.env.BENCH_TIMEOUT, 600);
const sizes = (flags.sizes ?? process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
const WARMUP_SECONDS = 2;
const WARMUP_CREATES = 100;
const SEED_CONNECTIONS = 64;
/** Alternating rounds of CPE's list and bare Koa's (the ceiling), each `duration / ROUNDS` seconds. */
const ROUNDS = 5;

const watchdog = guardChildren(timeoutSeconds);

const work = mkdtempSync(join(tmpdir(), 'cpe-bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

type System = 'CPE' | 'json-server' | 'bare Koa';
type Operation = 'list' | 'create';
interface Run extends LoadResult {
  system: System;
  contacts: number;
  operation: Operation;
  request: string;
  /** Rows in the collection when the measured run began (creates add to it). */
  rowsAtStart: number;
}
const runs: Run[] = [];
const notes: Record<string, unknown> = {};

let unique = 0;
const contactInput = () => {
  const n = ++unique;
  return {
    username: `bench_${process.pid}_${n}`,
    phone_number: `+44 20 ${String(7000 + (n % 3000))} ${String(n % 10_000).padStart(4, '0')}`,
    avatar_url: `https://example.com/avatars/${n}.png`,
  };
};

function checkClean(what: string, result: LoadResult, expected?: number): void {
  const bad = result.errors + result.timeouts + result.non2xx;
  if (bad || (expected !== undefined && result.ok !== expected))
    throw new Error(`${what}: ${result.ok} ok of ${expected ?? result.requests}, ${bad} failed (${JSON.stringify(result.statusCodes)})`);
}

async function measure(system: System, contacts: number, operation: Operation, url: string, spec: {
  path: string;
  headers?: Record<string, string>;
  body?: () => string;
  rowsAtStart: number;
}): Promise<Run> {
  const method = operation === 'list' ? 'GET' : 'POST';
  log(`  ${system} ${contacts}: ${method} ${spec.path} for ${duration} s, ${connections} connections`);
  const result = await load({ url, method, connections, duration, ...spec });
  const run: Run = { system, contacts, operation, request: `${method} ${spec.path}`, rowsAtStart: spec.rowsAtStart, ...result };
  runs.push(run);
  log(`    ${run.reqPerSec} req/s, p99 ${run.latency.p99} ms, ${run.errors + run.timeouts + run.non2xx} errors`);
  return run;
}

/** Every contact of the user, oldest first, read back through the list API (also checks the count). */
async function exportContacts(url: string, token: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await fetch(`${url}/v1/contacts?limit=100${after ? `&starting_after=${after}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { has_more: boolean; data: Record<string, unknown>[] };
    all.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.data.at(-1)!.id as string;
  }
  return all.reverse();
}

async function benchCpe(size: number): Promise<Record<string, unknown>[]> {
  const dataDir = join(work, `cpe-${size}`);
  log(`CPE with ${size} contacts (data in ${dataDir})`);
  const service = await startCpe(root, dataDir);
  try {
    const auth = { authorization: `Bearer ${service.token}` };
    const create = { path: '/v1/contacts', headers: auth, body: () => JSON.stringify(contactInput()) };

    const seedStarted = performance.now();
    const seed = await load({ url: service.url, method: 'POST', connections: SEED_CONNECTIONS, amount: size, ...create });
    checkClean(`seeding ${size} contacts`, seed, size);
    const contacts = await exportContacts(service.url, service.token);
    if (contacts.length !== size) throw new Error(`seeded ${size} contacts but the list API returns ${contacts.length}`);
    notes[`cpe_seed_${size}`] = { seconds: Math.round((performance.now() - seedStarted) / 10) / 100, createsPerSec: seed.reqPerSecOverall };
    log(`  seeded ${size} contacts through POST /v1/contacts in ${(performance.now() - seedStarted) / 1000} s`);

    const list = { path: '/v1/contacts?limit=10', headers: auth };
    const pageFile = join(work, `page-${size}.json`);
    writeFileSync(pageFile, await (await fetch(`${service.url}${list.path}`, { headers: auth })).text());
    await listBesideBareKoa(size, service.url, list, pageFile);

    checkClean('create warm-up', await load({ url: service.url, method: 'POST', connections, amount: WARMUP_CREATES, ...create }), WARMUP_CREATES);
    const created = await measure('CPE', size, 'create', service.url, { ...create, rowsAtStart: size + WARMUP_CREATES });
    await stop(service.child);
    const bytes = readdirSync(dataDir).filter((f) => f.startsWith('cpe.')).reduce((n, f) => n + statSync(join(dataDir, f)).size, 0);
    notes[`cpe_database_bytes_${size}`] = { after: bytes, contactsAfter: size + WARMUP_CREATES + created.ok };
    // The figures are the service's with its request log on: a line for every request answered.
    const logged = readFileSync(service.logFile, 'utf8').split('\n').filter((line) => line.includes('"msg":"request"')).length;
    const answered = runs.filter((r) => r.system === 'CPE' && r.contacts === size).reduce((n, r) => n + r.requests, 0);
    if (logged < answered) throw new Error(`the request log has ${logged} lines for ${answered} requests answered`);
    notes[`cpe_request_log_lines_${size}`] = logged;
    return contacts;
  } finally {
    await stop(service.child);
  }
}

/**
 * CPE's list side by side with the framework's ceiling: bare Koa answering the same page from a
 * string it holds, both running, measured in alternating rounds so both see the same machine.
 */
async function listBesideBareKoa(size: number, cpeUrl: string, list: { path: string; headers: Record<string, string> }, pageFile: string): Promise<void> {
  log(`  beside bare Koa answering CPE's page of ${size} contacts from a string it holds, ${ROUNDS} alternating rounds`);
  const server = await startBareKoa(root, pageFile);
  try {
    const cpe = { url: cpeUrl, method: 'GET' as const, connections, duration, ...list };
    const bare = { url: server.url, method: 'GET' as const, connections, duration, path: list.path };
    checkClean('list warm-up', await load({ ...cpe, duration: WARMUP_SECONDS }));
    checkClean('list warm-up', await load({ ...bare, duration: WARMUP_SECONDS }));
    log(`  CPE ${size} and bare Koa ${size}: GET ${list.path} for ${duration} s each, ${connections} connections`);
    const [ours, ceiling] = await loadSideBySide(cpe, bare, ROUNDS);
    for (const [system, result] of [['CPE', ours], ['bare Koa', ceiling]] as const) {
      const run: Run = { system, contacts: size, operation: 'list', request: `GET ${list.path}`, rowsAtStart: size, ...result };
      runs.push(run);
      log(`    ${system}: ${run.reqPerSec} req/s, p99 ${run.latency.p99} ms, ${run.errors + run.timeouts + run.non2xx} errors`);
    }
  } finally {
    await stop(server.child);
  }
}

/**
 * json-server's list of the same ten contacts CPE answers (the newest), with its documented slice
 * parameters. Not `_page`: json-server 0.17.4 reads it without removing it from the filters, so every
 * request scans every row for a `_page` field, which measured its bug rather than its list.
 */
const jsonServerList = (size: number) => `/contacts?_start=${size - 10}&_end=${size}`;

async function benchJsonServer(size: number, contacts: Record<string, unknown>[]): Promise<void> {
  const dbFile = join(work, `json-server-${size}`, 'db.json');
  mkdirSync(dirname(dbFile), { recursive: true });
  // The same contacts, as json-server's lowdb itself writes them (2-space indented).
  writeFileSync(dbFile, JSON.stringify({ contacts }, null, 2));
  log(`json-server with ${size} contacts (${dbFile})`);
  const server = await startJsonServer(root, dbFile);
  try {
    const list = { path: jsonServerList(size) };
    checkClean('list warm-up', await load({ url: server.url, method: 'GET', connections, duration: WARMUP_SECONDS, ...list }));
    const listed = await fetch(`${server.url}${list.path}`);
    if (listed.headers.get('x-total-count') !== String(size)) throw new Error(`json-server holds ${listed.headers.get('x-total-count')} contacts, not ${size}`);
    // The same ten contacts as CPE's first page (json-server lists them oldest first).
    const ids = ((await listed.json()) as { id: string }[]).map((c) => c.id).reverse();
    const expected = contacts.slice(-10).map((c) => c.id as string).reverse();
    if (JSON.stringify(ids) !== JSON.stringify(expected)) throw new Error(`json-server's ${list.path} is not CPE's newest ten`);
    await measure('json-server', size, 'list', server.url, { ...list, rowsAtStart: size });

    const create = {
      path: '/contacts',
      body: () =>
        JSON.stringify({ object: 'contact', ...contactInput(), display_name: null, conversation_id: null, last_active_at: null, created_at: Math.floor(Date.now() / 1000) }),
    };
    checkClean('create warm-up', await load({ url: server.url, method: 'POST', connections, amount: WARMUP_CREATES, ...create }), WARMUP_CREATES);
    await measure('json-server', size, 'create', server.url, { ...create, rowsAtStart: size + WARMUP_CREATES });
  } finally {
    await stop(server.child);
  }
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-GB', { maximumFractionDigits: n >= 100 ? 0 : 2 }) : 'n/a');

function report() {
  const find = (system: System, contacts: number, operation: Operation) =>
    runs.find((r) => r.system === system && r.contacts === contacts && r.operation === operation);
  const lines = [
    '| system | contacts | operation | req/s (mean) | p50 ms | p99 ms | errors (err/timeout/non-2xx) |',
    '|---|---:|---|---:|---:|---:|---:|',
  ];
  for (const r of runs) {
    lines.push(
      `| ${r.system} | ${fmt(r.contacts)} | ${r.operation} \`${r.request}\` | ${fmt(r.reqPerSec)} | ${fmt(r.latency.p50)} | ${fmt(r.latency.p99)} | ${r.errors + r.timeouts + r.non2xx} (${r.errors}/${r.timeouts}/${r.non2xx}) |`,
    );
  }
  const small = sizes[0];
  const big = sizes.at(-1)!;
  const ratio = (a?: Run, b?: Run, pick = (r: Run) => r.reqPerSec) => (a && b ? pick(a) / pick(b) : NaN);
  const listRatio = ratio(find('CPE', big, 'list'), find('json-server', big, 'list'));
  const createRatio = ratio(find('CPE', big, 'create'), find('json-server', big, 'create'));
  const p99Ratio = ratio(find('CPE', big, 'list'), find('CPE', small, 'list'), (r) => r.latency.p99);
  const ceilingRatio = ratio(find('CPE', big, 'list'), find('bare Koa', big, 'list'));
  const failed = runs.filter((r) => r.system === 'CPE').reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
  const checks = [
    { name: `list req/s at ${fmt(big)}: CPE ≥ 2× json-server`, ratio: listRatio, pass: listRatio >= 2 },
    { name: `durable create req/s at ${fmt(big)}: CPE ≥ 10× json-server`, ratio: createRatio, pass: createRatio >= 10 },
    { name: `CPE list p99 at ${fmt(big)} ≤ 1.5× p99 at ${fmt(small)}`, ratio: p99Ratio, pass: p99Ratio <= 1.5 },
    {
      name: `list req/s at ${fmt(big)}: CPE (request log at its default level) ≥ 0.5× bare Koa answering the same page from a string it holds`,
      ratio: ceilingRatio,
      pass: ceilingRatio >= 0.5,
    },
    { name: 'CPE: zero errors, timeouts and non-2xx in every run (seeding is checked too)', ratio: failed, pass: failed === 0 },
  ];
  const verdicts = checks.map((c, i) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${i === checks.length - 1 ? `${c.ratio} failed` : `${fmt(c.ratio)}×`}`);
  return { table: lines.join('\n'), checks, verdicts };
}

let exitCode = 0;
try {
  const loadAtStart = loadavg()[0];
  log(`Messaging benchmark: sizes ${sizes.join(', ')}, ${duration} s per run, ${connections} connections, node ${process.version}, ${cpus().length} CPUs`);
  for (const size of sizes) {
    const contacts = await benchCpe(size);
    await benchJsonServer(size, contacts);
  }
  const { table, checks, verdicts } = report();
  process.stdout.write(`\n${table}\n\n${verdicts.join('\n')}\n`);
  const notesText = [
    `\nNotes: ${duration} s per run after a ${WARMUP_SECONDS} s list warm-up and ${WARMUP_CREATES} warm-up creates; ${connections} connections;`,
    'p50/p99 are exact over every response (autocannon, this process; servers are child processes on 127.0.0.1).',
    'CPE acknowledges a create after an fdatasync of the append log (group commit); json-server 0.17.4 answers',
    'after serialising the whole db, and writes the file in the background (temp + rename, no fsync).',
    `Queries: CPE GET /v1/contacts?limit=10 (newest ten); json-server GET ${jsonServerList(sizes.at(-1)!)} (the same ten, by its`,
    'documented slice parameters; `_page` would scan every row in 0.17.4); bare Koa GET /v1/contacts?limit=10 answering',
    "CPE's page from a string it holds (no JSON.stringify per request; no auth, limiter, router, validation or log),",
    `measured beside CPE's list in ${ROUNDS} alternating rounds of ${duration / ROUNDS} s each (both running, so both see the same machine).`,
    "CPE logs at its default level (info: one JSON line per request, pino's batched writes) into a file: on its stdout this process, the load generator, would read them.",
    // Figures from a busy machine are not comparable with a quiet run's: say how busy it was.
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, node ${process.version}; 1-minute load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.`,
  ];
  process.stdout.write(`${notesText.join('\n')}\n`);
  const resultsDir = join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `messaging-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, duration, connections, sizes, runs, checks, notes }, null, 2)}\n`,
  );
  process.stdout.write(`\nResults: ${file}\n`);
  if (!checks.every((c) => c.pass)) exitCode = 1;
} catch (error) {
  console.error(`Benchmark failed: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
  killAll();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
