/**
 * Storage benchmark: what a durable write costs as the database grows. For each size it builds a
 * data folder of that many contacts (in process, through the messaging service, then compacted to a
 * snapshot), starts the real service on it as a child process, and measures on 127.0.0.1:
 * start-up time and memory, durable create and update rate and p99 (autocannon), and bytes on disk
 * per contact afterwards.
 *
 *   npm run -s bench:storage [-- --sizes 1000,100000,1000000 --duration 5 --connections 16]
 *
 * Targets (issue 8): create rate at 100,000 and 1,000,000 contacts ≥ 0.8 × the rate at 1,000;
 * start-up with 1,000,000 contacts under 10 s.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { ensureSeeded } from '../../server/seed.ts';
import { createServices } from '../../server/services.ts';
import { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { load, type LoadResult } from '../messaging/load.ts';
import { guardChildren, killAll, startServiceChild, stop } from '../../testkit/processes.ts';

const root = resolve(import.meta.dirname, '../..');
const { values: flags } = parseArgs({ options: { sizes: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, timeout: { type: 'string' } } });
const sizes = (flags.sizes ?? '1000,100000,1000000').split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
const duration = Number(flags.duration ?? 5);
const connections = Number(flags.connections ?? 16);
const watchdog = guardChildren(Number(flags.timeout ?? 900));
const work = mkdtempSync(join(tmpdir(), 'cpe-bench-storage-'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-GB', { maximumFractionDigits: digits }) : 'n/a');

interface SizeResult {
  contacts: number;
  buildSeconds: number;
  startSeconds: number;
  rssMB: number;
  create: LoadResult;
  update: LoadResult;
  bytesPerContact: number;
  files: Record<string, number>;
}

/** A data folder with `size` contacts of the demo user, as the service itself writes them, compacted. */
async function build(dir: string, size: number): Promise<string[]> {
  const store = await EmbeddedStore.open(dir);
  const services = createServices(store, createLogger({ level: 'silent' }), configFromEnv({ CPE_DATA_DIR: dir }));
  await ensureSeeded(services);
  const userId = (await services.users.userOf(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).accessToken))!.id;
  const ids: string[] = [];
  for (let i = 0; i < size; i++) {
    ids.push((await services.messaging.createContact(userId, { username: `seed_${i}`, phone_number: `+44 20 7946 ${String(i % 10_000).padStart(4, '0')}`, avatar_url: `https://example.com/a/${i}.png` })).id);
    if (i % 50_000 === 49_999) await store.commit();
  }
  await store.compact();
  await store.close();
  return ids;
}

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const folderBytes = (dir: string) => Object.fromEntries(readdirSync(dir).filter((f) => f.startsWith('cpe.')).map((f) => [f, statSync(join(dir, f)).size]));

const results: SizeResult[] = [];
let exitCode = 0;
try {
  const loadAtStart = loadavg()[0];
  log(`Storage benchmark: sizes ${sizes.join(', ')}, ${duration} s per run, ${connections} connections, ${cpus().length} CPUs, node ${process.version}`);
  for (const size of sizes) {
    const dir = join(work, `cpe-${size}`);
    const built = performance.now();
    const ids = await build(dir, size);
    const buildSeconds = (performance.now() - built) / 1000;
    log(`  ${size}: folder built in ${fmt(buildSeconds, 1)} s (${JSON.stringify(folderBytes(dir))})`);
    const started = performance.now();
    // Start-up is what is measured: wait as long as it takes (up to 5 minutes) rather than give up at 30 s.
    const service = await startServiceChild(root, dir, { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn' }, { startTimeoutMs: 300_000 });
    const startSeconds = (performance.now() - started) / 1000;
    const rss = rssMB(service.proc.pid!);
    try {
      const auth = { authorization: `Bearer ${service.credentials.accessToken}` };
      let n = 0;
      const create = await load({ url: service.url, method: 'POST', path: '/v1/contacts', headers: auth, connections, duration,
        body: () => JSON.stringify({ username: `bench_${++n}`, phone_number: '+44 20 7946 0000' }) });
      const update = await load({ url: service.url, method: 'PUT', path: `/v1/contacts/${ids[0]}`, headers: auth, connections, duration,
        pathFor: () => `/v1/contacts/${ids[Math.floor(Math.random() * ids.length)]}`,
        body: () => JSON.stringify({ display_name: `name ${++n}` }) });
      await stop(service);
      const files = folderBytes(dir);
      const bytes = Object.values(files).reduce((a, b) => a + b, 0);
      const contacts = size + create.ok;
      results.push({ contacts: size, buildSeconds, startSeconds, rssMB: rss, create, update, bytesPerContact: bytes / contacts, files });
      log(`  ${size}: start ${fmt(startSeconds, 2)} s, ${fmt(rss)} MB; create ${create.reqPerSec}/s p99 ${create.latency.p99} ms; update ${update.reqPerSec}/s p99 ${update.latency.p99} ms; ${fmt(bytes / contacts)} B/contact`);
    } finally {
      await stop(service);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const lines = [
    '| contacts | start-up s | RSS MB | create req/s | create p99 ms | update req/s | update p99 ms | errors | bytes on disk per contact |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${fmt(r.contacts)} | ${fmt(r.startSeconds, 2)} | ${fmt(r.rssMB)} | ${fmt(r.create.reqPerSec)} | ${fmt(r.create.latency.p99, 1)} | ${fmt(r.update.reqPerSec)} | ${fmt(r.update.latency.p99, 1)} | ${r.create.errors + r.create.non2xx + r.update.errors + r.update.non2xx} | ${fmt(r.bytesPerContact)} |`),
  ];
  const base = results[0];
  const checks = [
    ...results.slice(1).filter((r) => r.contacts >= 100_000).map((r) => {
      const ratio = r.create.reqPerSec / base.create.reqPerSec;
      return { pass: ratio >= 0.8, text: `create rate at ${fmt(r.contacts)} ≥ 0.8 × the rate at ${fmt(base.contacts)}: ${fmt(ratio, 2)}×` };
    }),
    ...results.filter((r) => r.contacts >= 1_000_000).map((r) => ({ pass: r.startSeconds < 10, text: `start-up with ${fmt(r.contacts)} contacts under 10 s: ${fmt(r.startSeconds, 2)} s` })),
    { pass: results.every((r) => r.create.errors + r.create.non2xx + r.update.errors + r.update.non2xx === 0), text: 'zero errors' },
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n${checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.text}`).join('\n')}\n`);
  process.stdout.write(
    `\nEach size: ${duration} s of durable creates (POST /v1/contacts), then ${duration} s of durable updates (PUT /v1/contacts/:id, random rows), ${connections} connections, on 127.0.0.1.\n` +
      'Start-up: spawning the service until /healthz answers (node and tsx included). RSS after start. Bytes: cpe.snapshot plus logs after the runs.\n' +
      `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}; 1-minute load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.\n`,
  );
  if (!checks.every((c) => c.pass)) exitCode = 1;
} catch (error) {
  console.error(`Benchmark failed: ${error instanceof Error ? error.stack : error}`);
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
  killAll();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
