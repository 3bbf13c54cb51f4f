/**
 * The intent list's benchmark (issue 20): the p99 of one filtered page of GET /v1/payment_intents at
 * 100,000 intents of one merchant, on each engine, against the goal of 25 ms; beside it, in the same
 * run, the unfiltered first page (the floor a filter adds to).
 *
 *   npm run -s bench:payments-list [-- --intents 100000 --requests 1000 --engines embedded,postgres]
 *
 * The intents are written straight into the store (in transactions of 1,000, through the store's own
 * collection, as the service would store them): statuses mixed as a shop's are, creation times over
 * 30 days, metadata with a unique order id, a common channel and a customer shared by 20 intents.
 * Then the service (`scripts/start.ts`, as `npm start` runs it) serves them from its own process, and
 * this process asks each filter `--requests` times, one at a time, at a random cursor-free page of 10.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { IntentRow } from '../../server/payments/intent-rows.ts';
import { openStore } from '../../server/store/open-store.ts';
import { guardChildren, startServiceChild, stop, type ServiceChild } from '../../testkit/processes.ts';
import { startPostgres } from '../../testkit/postgres.ts';
import { storedIntent } from '../../testkit/intent-rows.ts';

const root = resolve(import.meta.dirname, '../..');
const { values: flags } = parseArgs({ options: { intents: { type: 'string' }, requests: { type: 'string' }, engines: { type: 'string' } } });
const INTENTS = Number(flags.intents ?? 100_000);
const REQUESTS = Number(flags.requests ?? 1_000);
const ENGINES = (flags.engines ?? 'embedded,postgres').split(',') as ('embedded' | 'postgres')[];
const GOAL_MS = 25;
/**
 * On this shared machine the unfiltered page's own p99 may be past the goal (at a load average of
 * 16, 112 ms): then the ratio of the medians says what the filters cost, the floor being the same run's.
 */
const RATIO_GOAL = 2;
const DAY = 86_400;
const STATUSES: [IntentRow['status'], number][] = [
  ['succeeded', 0.6],
  ['requires_payment_method', 0.15],
  ['failed', 0.1],
  ['cancelled', 0.1],
  ['requires_capture', 0.05],
];

const watchdog = guardChildren(60 * 60);
const log = (line: string) => process.stderr.write(`${line}\n`);
/** The machine's load average (1, 5, 15 minutes): on two shared cores, what a timing means depends on it. */
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const percentile = (values: number[], p: number) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function statusOf(n: number): IntentRow['status'] {
  let x = ((n * 2654435761) % 1000) / 1000;
  for (const [status, share] of STATUSES) if ((x -= share) < 0) return status;
  return 'succeeded';
}

/** Writes the intents of `merchantId` into the store the service will open. */
async function seed(config: { dataDir?: string; databaseUrl?: string }, merchantId: number, start: number): Promise<void> {
  const store = await openStore(config);
  const intents = store.collection<IntentRow>('payment_intents');
  const started = performance.now();
  for (let from = 0; from < INTENTS; from += 1_000) {
    await store.transaction(async () => {
      for (let n = from; n < Math.min(INTENTS, from + 1_000); n++) {
        const created = start + Math.floor((n / INTENTS) * 30 * DAY);
        await intents.insert(
          storedIntent({
            merchant_id: merchantId,
            status: statusOf(n),
            amount: 500 + (n % 9_500),
            identifier: `order-${n}`,
            metadata: { order_id: `ord-${n}`, channel: ['web', 'phone', 'shop'][n % 3]!, customer: `cus-${n % 5_000}` },
            created_at: created,
          }),
        );
      }
    });
  }
  await store.close();
  log(`  seeded ${INTENTS.toLocaleString('en-GB')} intents in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Each filter asked REQUESTS times, one at a time: p50 and p99 of the page in ms. */
async function measure(service: ServiceChild, start: number) {
  const auth = { authorization: `Bearer ${service.credentials.licenceKey}` };
  const mid = start + 15 * DAY;
  const filters: [string, (i: number) => string][] = [
    ['no filter (the floor)', () => 'limit=10'],
    ['status=succeeded', () => 'limit=10&status=succeeded'],
    ['status=failed,cancelled', () => 'limit=10&status=failed,cancelled'],
    ['status=requires_capture (5 %)', () => 'limit=10&status=requires_capture'],
    ['created[gte]&created[lte] (a day, mid-range)', (i) => `limit=10&created[gte]=${mid - (i % 10) * DAY}&created[lte]=${mid - (i % 10) * DAY + DAY}`],
    ['created[lte] (the oldest tenth)', () => `limit=10&created[lte]=${start + 3 * DAY}`],
    ['metadata[order_id] (one intent)', (i) => `limit=10&metadata[order_id]=ord-${(i * 7919) % INTENTS}`],
    ['metadata[customer] (20 intents)', (i) => `limit=10&metadata[customer]=cus-${i % 5_000}`],
    ['metadata[channel]=web (a third)', () => 'limit=10&metadata[channel]=web'],
    ['status=succeeded&metadata[channel]&created[gte]', () => `limit=10&status=succeeded&metadata[channel]=phone&created[gte]=${mid}`],
  ];
  const rows: { filter: string; p50: number; p99: number }[] = [];
  for (const [name, query] of filters) {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS + 20; i++) {
      const t0 = performance.now();
      const response = await fetch(`${service.url}/v1/payment_intents?${query(i)}`, { headers: auth });
      const body = (await response.json()) as { data?: unknown[] };
      const ms = performance.now() - t0;
      if (response.status !== 200 || !Array.isArray(body.data)) throw new Error(`${name}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      if (i >= 20) times.push(ms); // the first few warm the process up
    }
    rows.push({ filter: name, p50: percentile(times, 50), p99: percentile(times, 99) });
  }
  return rows;
}

let failed = false;
let ratioFailed = false;
try {
  log(`Intent list benchmark: ${INTENTS.toLocaleString('en-GB')} intents of one merchant, ${REQUESTS} pages of 10 per filter, one at a time; goal p99 ≤ ${GOAL_MS} ms`);
  for (const engine of ENGINES) {
    const work = mkdtempSync(join(tmpdir(), `cpe-bench-list-${engine}-`));
    const postgres = engine === 'postgres' ? await startPostgres() : undefined;
    try {
      const databaseUrl = postgres ? await postgres.createDatabase() : undefined;
      const env = { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn', ...(databaseUrl ? { CPE_DATABASE_URL: databaseUrl } : {}) };
      log(`\n${engine}:`);
      // A first start seeds the merchant; the intents are then written while no service runs (the embedded folder has one owner).
      let service = await startServiceChild(root, work, env);
      const { merchantId } = service.credentials;
      await stop(service);
      const start = Math.floor(Date.now() / 1000) - 31 * DAY;
      await seed(databaseUrl ? { databaseUrl } : { dataDir: work }, merchantId, start);
      if (postgres) {
        // Fresh statistics, as autovacuum would have gathered them on a database that grew over time.
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query('VACUUM ANALYZE payment_intents');
        await client.end();
      }
      service = await startServiceChild(root, work, env, { startTimeoutMs: 120_000 });
      try {
        log(`  load average ${load()} before the requests`);
        const rows = await measure(service, start);
        log(`  load average ${load()} after them`);
        const floor = rows[0]!;
        for (const row of rows) {
          const pass = row.p99 <= GOAL_MS;
          if (!pass) failed = true;
          log(`  ${row.filter.padEnd(50)} p50 ${row.p50.toFixed(2).padStart(6)} ms  p99 ${row.p99.toFixed(2).padStart(6)} ms  (${(row.p50 / floor.p50).toFixed(2)}× / ${(row.p99 / floor.p99).toFixed(2)}× the floor's)  ${pass ? 'PASS' : 'FAIL'}`);
        }
        // What the machine cannot hide: a filter's cost beside the unfiltered page's in the same run,
        // by the medians (a p99 of 1,000 requests on a loaded machine is its busiest moments').
        const worst = rows.slice(1).reduce((a, b) => (b.p50 > a.p50 ? b : a));
        const ratio = worst.p50 / floor.p50;
        if (ratio > RATIO_GOAL) ratioFailed = true;
        log(`  ${ratio <= RATIO_GOAL ? 'PASS' : 'FAIL'} ratio: every filter's p50 ≤ ${RATIO_GOAL}× the unfiltered page's (worst: ${worst.filter}, ${ratio.toFixed(2)}×)`);
      } finally {
        await stop(service);
      }
    } finally {
      postgres?.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }
  log(`\n${failed ? 'FAIL' : 'PASS'}: p99 of a filtered page ≤ ${GOAL_MS} ms at ${INTENTS.toLocaleString('en-GB')} intents on ${ENGINES.join(' and ')} (load average ${load()})`);
  log(`${ratioFailed ? 'FAIL' : 'PASS'}: every filtered page's p50 ≤ ${RATIO_GOAL}× the unfiltered page's of the same run`);
} finally {
  clearTimeout(watchdog);
}
process.exit(failed || ratioFailed ? 1 : 0);
