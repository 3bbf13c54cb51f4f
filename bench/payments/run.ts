/**
 * Payments benchmark: complete server-side card payments per second, durable, and the p99 of one.
 *
 *   npm run -s bench:payments [-- --duration 15 --concurrency 512 --warmup 3 --idempotency true --cpu-prof]
 *   (or BENCH_DURATION, BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_IDEMPOTENCY, BENCH_TIMEOUT, BENCH_TARGET)
 *
 * A complete payment is the intent-level flow for a frictionless card (4242 4242 4242 4242), seven
 * requests in order: create → tokenise → attach → confirm → authorise → verify → a refund of half,
 * each checked (status 200, the expected intent status, verify `success`, the refund `succeeded`). N concurrent payment loops run in
 * this process against the service as a separate child process (`node --import tsx scripts/start.ts`,
 * what `npm start` runs) with a real data folder, so every acknowledged step is on disk (group
 * commit: an fdatasync of the append log). All traffic stays on 127.0.0.1.
 *
 * The service runs with its rate limits off (CPE_RATE_LIMIT=0, CPE_TOKENISE_RATE_PER_IP=0,
 * CPE_TOKENISE_RATE_PER_SESSION=0, CPE_TOKENISE_RATE_PER_MERCHANT=0): the tokenise limits (5/s per
 * address, 25/s per merchant) would otherwise cap the benchmark at 5 payments per second. Logging is at `warn` (no request lines).
 *
 * Prints a table and PASS/FAIL against the target (300 payments/s), writes everything to
 * bench/results/payments-<date>.json. With --cpu-prof the service runs under V8's CPU profiler and
 * the run ends with where the service's time went (the profiler slows it: its numbers are not the
 * benchmark's).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summariseProfile, type ProfileSummary } from './profile.ts';
import { guardChildren, killAll, UNLIMITED } from '../../testkit/processes.ts';
import { readDataFolder } from '../../testkit/data-folder.ts';
import { jsonClient, startService, stopService, type Answer } from './service.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    concurrency: { type: 'string' },
    warmup: { type: 'string' },
    idempotency: { type: 'string' },
    timeout: { type: 'string' },
    target: { type: 'string' },
    'cpu-prof': { type: 'boolean' },
    'keep-data': { type: 'boolean' },
  },
});
const num = (flag: string | undefined, env: string | undefined, fallback: number) => {
  const n = Number(flag ?? env);
  return (flag ?? env) !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback;
};
const duration = num(flags.duration, process.env.BENCH_DURATION, 15);
const concurrency = Math.max(1, Math.round(num(flags.concurrency, process.env.BENCH_CONCURRENCY, 512)));
const warmup = num(flags.warmup, process.env.BENCH_WARMUP, 3);
const timeoutSeconds = num(flags.timeout, process.env.BENCH_TIMEOUT, duration + warmup + 120);
const target = num(flags.target, process.env.BENCH_TARGET, 300);
const idempotencyKeys = (flags.idempotency ?? process.env.BENCH_IDEMPOTENCY ?? 'true') !== 'false';
const cpuProf = flags['cpu-prof'] === true || process.env.BENCH_CPU_PROF === '1';


const watchdog = guardChildren(timeoutSeconds);

const log = (line: string) => process.stderr.write(`${line}\n`);
const work = mkdtempSync(join(tmpdir(), 'cpe-bench-payments-'));
const dataDir = join(work, 'data');
const profileDir = join(work, 'profile');

const STEPS = ['create', 'tokenise', 'attach', 'confirm', 'authorise', 'verify', 'refund'] as const;
type StepName = (typeof STEPS)[number];

interface Window {
  /** performance.now() bounds: a payment counts when it completes inside. */
  from: number;
  to: number;
  payments: number[];
  steps: Record<StepName, number[]>;
  requests: number;
  errors: number;
  errorSamples: string[];
}

const newWindow = (from: number, to: number): Window => ({
  from,
  to,
  payments: [],
  steps: Object.fromEntries(STEPS.map((s) => [s, []])) as unknown as Record<StepName, number[]>,
  requests: 0,
  errors: 0,
  errorSamples: [],
});

let runId = 0;

async function runLoad(client: ReturnType<typeof jsonClient>, service: { url: string; credentials: { merchantId: number; licenceKey: string; publicKey: string } }, seconds: number): Promise<Window> {
  const { credentials } = service;
  // Tokenise as the hosted frame sends it (the route answers the service's own frames only).
  const fromFrame = { origin: service.url, 'sec-fetch-site': 'same-origin' };
  const started = performance.now();
  const window = newWindow(started, started + seconds * 1000);
  const licence = { authorization: `Bearer ${credentials.licenceKey}` };
  const run = `${process.pid}-${++runId}`;
  let keys = 0;
  const key = (): Record<string, string> => (idempotencyKeys ? { 'x-idempotency-key': `bench-${run}-${++keys}` } : {});

  const fail = (step: StepName, answer: Answer | Error) => {
    window.errors++;
    if (window.errorSamples.length < 5)
      window.errorSamples.push(answer instanceof Error ? `${step}: ${answer.message}` : `${step}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  };

  /** One complete payment; false (and an error counted) at the first unexpected answer. */
  async function payment(n: number): Promise<boolean> {
    const t0 = performance.now();
    const times: Partial<Record<StepName, number>> = {};
    let last = t0;
    const step = async (name: StepName, send: () => Promise<Answer>, ok: (a: Answer) => boolean): Promise<Answer | undefined> => {
      let answer: Answer;
      try {
        answer = await send();
      } catch (error) {
        fail(name, error as Error);
        return undefined;
      }
      window.requests++;
      const now = performance.now();
      times[name] = now - last;
      last = now;
      if (!ok(answer)) {
        fail(name, answer);
        return undefined;
      }
      return answer;
    };
    const created = await step(
      'create',
      () => client.send('POST', '/v1/payment_intents', { ...licence, ...key() }, { merchantid: credentials.merchantId, amount: 1000 + (n % 9000), currency: 'GBP', identifier: `bench-${n}` }),
      (a) => a.status === 200 && a.body.status === 'open',
    );
    if (!created) return false;
    const id: string = created.body.paymentIntentId;
    const session = { 'x-cpe-public-key': credentials.publicKey, 'x-cpe-session-token': created.body.session_token as string };
    const tokenised = await step(
      'tokenise',
      () => client.send('POST', '/frames/tokenise', { ...fromFrame, ...session, ...key() }, { card: { number: '4242 4242 4242 4242', exp_month: '12', exp_year: '2031', cvc: '123', name: 'Bench Shopper' } }),
      (a) => a.status === 200 && typeof a.body.data?.cp_card_token === 'string',
    );
    if (!tokenised) return false;
    const backend = (op: string, body: Record<string, unknown>, expected: (a: Answer) => boolean) =>
      step(op as StepName, () => client.send('POST', `/v1/payment_intents/${op}`, { ...licence, ...key() }, { payment_intent_id: id, ...body }), (a) => a.status === 200 && expected(a));
    if (!(await backend('attach', { token: tokenised.body.data.cp_card_token }, (a) => a.body.status === 'requires_customer_confirmation'))) return false;
    if (!(await backend('confirm', {}, (a) => a.body.status === 'requires_authorisation'))) return false;
    if (!(await backend('authorise', {}, (a) => a.body.authorised === true && a.body.status === 'succeeded'))) return false;
    if (!(await backend('verify', { unmask_fields: [] }, (a) => a.body.status === 'success'))) return false;
    // A partial refund of what was captured: the intent is read for update, the refund and the intent written.
    const refunded = await step(
      'refund',
      () => client.send('POST', '/v1/refunds', { ...licence, ...key() }, { payment_intent: id, amount: Math.floor((1000 + (n % 9000)) / 2) }),
      (a) => a.status === 200 && a.body.status === 'succeeded',
    );
    if (!refunded) return false;
    const end = performance.now();
    if (t0 >= window.from && end <= window.to) {
      window.payments.push(end - t0);
      for (const s of STEPS) window.steps[s].push(times[s]!);
    }
    return true;
  }

  let n = 0;
  const loop = async () => {
    while (performance.now() < window.to) {
      const ok = await payment(++n);
      // After a failure, do not spin: the service may be down.
      if (!ok) await new Promise((r) => setTimeout(r, 50));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  // Requests and errors of payments finishing after the window still counted: keep rates to the window.
  return window;
}

/** Bytes and write calls the process has made to storage so far (Linux), or undefined. */
function processIo(pid: number | undefined): { writeBytes: number; writeCalls: number } | undefined {
  if (!pid || !existsSync(`/proc/${pid}/io`)) return undefined;
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return { writeBytes: field('write_bytes'), writeCalls: field('syscw') };
  } catch {
    return undefined;
  }
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toLocaleString('en-GB', { maximumFractionDigits: d }) : 'n/a');

let exitCode = 0;
try {
  log(
    `Payments benchmark: ${duration} s measured after ${warmup} s warm-up, ${concurrency} concurrent payment loops, idempotency keys ${idempotencyKeys ? 'on' : 'off'}, ` +
      `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}${cpuProf ? ', service under --cpu-prof' : ''}`,
  );
  log(`Service: node --import tsx scripts/start.ts, data in ${dataDir}, ${Object.entries(UNLIMITED).map(([k, v]) => `${k}=${v}`).join(' ')} (rate limits off)`);
  const service = await startService(root, dataDir, UNLIMITED, { nodeFlags: cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
  const client = jsonClient(service.port, concurrency);
  let measured: Window;
  let seconds: number;
  let io: { writeBytes: number; writeCalls: number } | undefined;
  try {
    if (warmup > 0) {
      const w = await runLoad(client, service, warmup);
      log(`  warm-up: ${w.payments.length} payments, ${w.errors} errors`);
    }
    const ioBefore = processIo(service.proc.pid);
    const started = performance.now();
    measured = await runLoad(client, service, duration);
    seconds = Math.min(duration, (performance.now() - started) / 1000);
    const ioAfter = processIo(service.proc.pid);
    if (ioBefore && ioAfter) io = { writeBytes: ioAfter.writeBytes - ioBefore.writeBytes, writeCalls: ioAfter.writeCalls - ioBefore.writeCalls };
  } finally {
    client.close();
    await stopService(service);
  }
  if (service.proc.exitCode !== 0 && service.proc.signalCode === null) log(`  the service exited with ${service.proc.exitCode}:\n${service.output()}`);

  // The database as the service would load it (snapshot plus logs), and its files' size.
  const stored = await readDataFolder(dataDir);
  const databaseBytes = readdirSync(dataDir).filter((f) => f.startsWith('cpe.')).reduce((n, f) => n + statSync(join(dataDir, f)).size, 0);
  const rows = Object.fromEntries(Object.entries(stored.collections).map(([name, r]) => [name, Object.keys(r).length]));
  const payments = measured.payments.length;
  const result = {
    paymentsPerSec: round(payments / seconds),
    requestsPerSec: round((payments * STEPS.length) / seconds),
    payments,
    p50: round(percentile(measured.payments, 50), 2),
    p99: round(percentile(measured.payments, 99), 2),
    max: round(Math.max(...measured.payments), 2),
    errors: measured.errors,
    errorSamples: measured.errorSamples,
    steps: Object.fromEntries(STEPS.map((s) => [s, { p50: round(percentile(measured.steps[s], 50), 2), p99: round(percentile(measured.steps[s], 99), 2) }])),
    dataFileBytes: databaseBytes,
    rows,
    /** What the service process wrote to disk during the measured window (Linux /proc/<pid>/io). */
    disk: io ? { bytes: io.writeBytes, mbPerSec: round(io.writeBytes / 1e6 / seconds), bytesPerPayment: Math.round(io.writeBytes / Math.max(1, payments)) } : null,
  };
  const pass = result.paymentsPerSec >= target && result.errors === 0;

  const table = [
    '| payments/s | requests/s | p50 payment ms | p99 payment ms | max ms | payments | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${fmt(result.paymentsPerSec)} | ${fmt(result.requestsPerSec, 0)} | ${fmt(result.p50, 2)} | ${fmt(result.p99, 2)} | ${fmt(result.max, 2)} | ${payments} | ${result.errors} |`,
    '',
    '| step | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...STEPS.map((s) => `| ${s} | ${fmt(result.steps[s].p50, 2)} | ${fmt(result.steps[s].p99, 2)} |`),
  ].join('\n');
  process.stdout.write(`\n${table}\n\n`);
  process.stdout.write(
    `${pass ? 'PASS' : 'FAIL'}  ≥ ${target} complete payments/s with no errors: ${fmt(result.paymentsPerSec)}/s, ${result.errors} errors${cpuProf ? ' (under the profiler: not a benchmark figure)' : ''} (load average ${loadavg().map((n) => n.toFixed(2)).join(' ')})\n`,
  );
  if (measured.errorSamples.length) process.stdout.write(`Errors, first ${measured.errorSamples.length}:\n  ${measured.errorSamples.join('\n  ')}\n`);
  process.stdout.write(
    [
      '',
      `Notes: a payment = create, tokenise (4242 4242 4242 4242), attach, confirm, authorise, verify, refund (half); ${STEPS.length} requests, each`,
      `checked; ${concurrency} payment loops in this process, ${idempotencyKeys ? 'an X-Idempotency-Key on every POST (as CpeClient sends)' : 'no idempotency keys'};`,
      `counted: payments started and finished within the ${duration} s window (after ${warmup} s of warm-up). Service: a child process,`,
      'data folder on disk (every answer after an fdatasync of the append log), loopback only, log level warn, rate limits OFF',
      `(CPE_RATE_LIMIT=0, CPE_TOKENISE_RATE_PER_IP/_SESSION/_MERCHANT=0). database files (snapshot and logs) at the end: ${fmt(result.dataFileBytes / 1e6, 2)} MB,`,
      `rows ${JSON.stringify(rows)}.`,
      result.disk
        ? `Disk: the service wrote ${fmt(result.disk.bytes / 1e9, 2)} GB in the window (${fmt(result.disk.mbPerSec, 0)} MB/s, ${fmt(result.disk.bytesPerPayment / 1e3, 0)} KB per payment): each group commit appends its changed rows to the log, and compactions rewrite the snapshot in the background.`
        : '',
    ].join('\n') + '\n',
  );

  let profile: ProfileSummary | undefined;
  if (cpuProf) {
    profile = summariseProfile(profileDir, root, [
      'commit@server/store/embedded-store.ts',
      '#drain@server/store/embedded-store.ts',
      'write@server/store/embedded/append-log.ts',
      '#compact@server/store/embedded/append-log.ts',
      'update@server/store/indexed-collection.ts',
      'insert@server/store/indexed-collection.ts',
      'stringify@',
    ]);
    const lines = [
      `\nCPU profile of the service (${profile.file}): ${fmt(profile.totalMs / 1000, 1)} s sampled, busy ${fmt((profile.busyMs / profile.totalMs) * 100, 0)}%.`,
      '\nBusy time by the innermost project code on the stack (its native callees included):',
      ...profile.byArea.map((r) => `  ${String(r.share).padStart(5)}%  ${fmt(r.ms, 0).padStart(7)} ms  ${r.area}`),
      '\nSelf time by where the CPU was:',
      ...profile.byLeaf.map((r) => `  ${String(r.share).padStart(5)}%  ${fmt(r.ms, 0).padStart(7)} ms  ${r.category}`),
      '\nHeaviest functions (self time):',
      ...profile.topSelf.map((r) => `  ${String(r.share).padStart(5)}%  ${fmt(r.ms, 0).padStart(7)} ms  ${r.fn}`),
      '\nInclusive time of store functions:',
      ...profile.inclusive.map((r) => `  ${String(r.share).padStart(5)}%  ${fmt(r.ms, 0).padStart(7)} ms  ${r.fn}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  const resultsDir = join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const out = join(resultsDir, `payments-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        duration,
        warmup,
        concurrency,
        idempotencyKeys,
        cpuProf,
        target,
        serviceEnv: UNLIMITED,
        pass,
        result,
        ...(profile ? { profile } : {}),
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`\nResults: ${out}\n`);
  if (!pass) exitCode = 1;
} catch (error) {
  console.error(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
  killAll();
  if (flags['keep-data']) log(`Data kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
