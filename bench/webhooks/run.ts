/**
 * `npm run -s bench:webhooks [-- --seconds 8 --rounds 2 --concurrency 32 --tcp]`: webhook delivery on
 * each engine, side by side in one run on one machine. For the embedded store and for PostgreSQL (a
 * throwaway server started here with fsync on, as the embedded store's fdatasync is), each with the
 * service as a child process (`npm start`'s) and a receiver in this process answering 204:
 *
 * - delivery: creates of payment intents from `concurrency` clients for `seconds` (one event each,
 *   one endpoint taking `*`): events delivered per second (from the first create to the last
 *   delivery, backlog included) and the time from commit (the create's answer, which the service
 *   sends once the change and its event are durable) to delivery, p50 and p99;
 * - the outbox's cost: complete payments per second (create, token, attach, confirm, authorise: four
 *   events each) with no endpoint and with one, alternated `rounds` times so drift hits both alike.
 *   Goal (issue 19): with webhooks ≥ 0.85× without, each engine. Prints PASS/FAIL.
 *
 * All traffic stays on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { createDatabase, startPostgres } from '../../testkit/postgres.ts';
import { guardChildren, startServiceChild, stop, UNLIMITED, type ServiceChild } from '../../testkit/processes.ts';
import { jsonClient, type Answer } from '../payments/service.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '32' },
    tcp: { type: 'boolean', default: false },
    engine: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const GOAL = 0.85;
/** Clients of the latency measure: a busy sandbox's worth, short of saturating the machine (where latency is only queueing). */
const LATENCY_CLIENTS = 4;
const root = join(import.meta.dirname, '../..');
const watchdog = guardChildren(1800);
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/**
 * A receiver answering 204 at once; while `timing`, it notes when each event arrived
 * (performance.now()), else it only counts (it shares the machine with the service).
 */
class Receiver {
  timing = true;
  /** Intent id → arrival of its first event (payment_intent.created). */
  readonly created = new Map<string, number>();
  requests = 0;
  lastAt = 0;
  url = '';
  #server!: Server;

  async start() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now();
        this.requests++;
        this.lastAt = at;
        res.writeHead(204).end();
        if (!this.timing) return;
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (event.type === 'payment_intent.created' && !this.created.has(event.data.object.id)) this.created.set(event.data.object.id, at);
      });
    });
    this.#server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once no request has come for `quietMs` (the backlog is delivered). */
  async quiet(quietMs = 1_000) {
    while (performance.now() - Math.max(this.lastAt, 0) < quietMs) await sleep(100);
  }

  close() {
    this.#server.closeAllConnections();
    this.#server.close();
  }
}

type Client = ReturnType<typeof jsonClient>;

/** `clients` loops running `one` until `seconds` have passed; how many completed, how many failed. */
async function load(seconds: number, one: (n: number) => Promise<boolean>, clients = CONCURRENCY) {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        if (await one(++n).catch(() => false)) done++;
        else {
          failed++;
          await sleep(20);
        }
      }
    }),
  );
  return { done, failed };
}

async function delivery(service: ServiceChild, client: Client, receiver: Receiver, clients: number) {
  const { licenceKey, merchantId } = service.credentials;
  const auth = { authorization: `Bearer ${licenceKey}` };
  const answered = new Map<string, number>();
  const started = performance.now();
  const { done, failed } = await load(SECONDS, async (n) => {
    const r = await client.send('POST', '/v1/payment_intents', auth, { merchantid: merchantId, amount: 100 + (n % 900), currency: 'GBP', identifier: `d${n}` });
    if (r.status !== 200) return false;
    answered.set(r.body.paymentIntentId, performance.now());
    return true;
  }, clients);
  const loadEnd = performance.now();
  // The backlog: wait until every created intent's event has arrived.
  while ([...answered.keys()].some((id) => !receiver.created.has(id))) await sleep(50);
  const last = Math.max(...[...answered.keys()].map((id) => receiver.created.get(id)!));
  const latencies = [...answered].map(([id, at]) => receiver.created.get(id)! - at);
  const within = [...answered.keys()].filter((id) => receiver.created.get(id)! <= loadEnd).length;
  return {
    creates: done,
    failed,
    createsPerSecond: done / ((loadEnd - started) / 1000),
    deliveredPerSecond: done / ((last - started) / 1000),
    deliveredDuringLoad: within / ((loadEnd - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    backlogMs: Math.max(0, last - loadEnd),
  };
}

/** Complete payments per second: create, token, attach, confirm, authorise (four events). */
async function payments(service: ServiceChild, client: Client) {
  const { licenceKey, merchantId } = service.credentials;
  const auth = { authorization: `Bearer ${licenceKey}` };
  const ok = (a: Answer) => a.status === 200;
  const { done, failed } = await load(SECONDS, async (n) => {
    const created = await client.send('POST', '/v1/payment_intents', auth, { merchantid: merchantId, amount: 1000 + (n % 9000), currency: 'GBP', identifier: `p${n}` });
    if (!ok(created)) return false;
    const id = created.body.paymentIntentId;
    const token = await client.send('POST', '/v1/tokens', auth, { card: { number: '4242424242424242', exp_month: '12', exp_year: '2031', cvc: '123', name: 'Bench' } });
    if (!ok(token)) return false;
    for (const [op, body] of [
      ['attach', { token: token.body.data.cp_card_token }],
      ['confirm', {}],
      ['authorise', {}],
    ] as const)
      if (!ok(await client.send('POST', `/v1/payment_intents/${op}`, auth, { payment_intent_id: id, ...body }))) return false;
    return true;
  });
  return { perSecond: done / SECONDS, failed };
}

interface EngineResult {
  engine: string;
  delivery: Awaited<ReturnType<typeof delivery>>;
  /** The same at a load the machine carries without a backlog. */
  latency: Awaited<ReturnType<typeof delivery>>;
  off: number[];
  /** An endpoint taking every event (four per payment). */
  on: number[];
  /** An endpoint taking what a shop fulfils on (payment_intent.succeeded, payment_intent.payment_failed: one per payment). */
  shop: number[];
  failures: number;
}

const SHOP_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed'];

async function runEngine(engine: 'embedded' | 'postgres', databaseUrl?: string): Promise<EngineResult> {
  const service = await startServiceChild(root, tempDataDir(), { ...UNLIMITED, ...(databaseUrl ? { CPE_DATABASE_URL: databaseUrl } : {}) });
  const client = jsonClient(service.port, CONCURRENCY * 2);
  const receiver = new Receiver();
  await receiver.start();
  const auth = { authorization: `Bearer ${service.credentials.licenceKey}` };
  const addEndpoint = async (events = ['*']) => (await client.send('POST', '/v1/webhook_endpoints', auth, { url: receiver.url, enabled_events: events })).body.id as string;
  try {
    log(`${engine}: delivery, ${SECONDS} s of creates from ${CONCURRENCY} clients, then from ${LATENCY_CLIENTS}`);
    let endpoint = await addEndpoint();
    const measured = await delivery(service, client, receiver, CONCURRENCY);
    const latency = await delivery(service, client, receiver, LATENCY_CLIENTS);
    await client.send('POST', `/v1/webhook_endpoints/${endpoint}`, auth, { disabled: true });
    await receiver.quiet();
    receiver.timing = false;
    const off: number[] = [];
    const on: number[] = [];
    const shop: number[] = [];
    let failures = 0;
    for (let r = 0; r < ROUNDS; r++) {
      log(`${engine}: payments without webhooks (round ${r + 1})`);
      const without = await payments(service, client);
      off.push(without.perSecond);
      for (const [events, into] of [[['*'], on], [SHOP_EVENTS, shop]] as const) {
        log(`${engine}: payments with webhooks, ${events.join(', ')} (round ${r + 1})`);
        endpoint = await addEndpoint([...events]);
        const withHooks = await payments(service, client);
        into.push(withHooks.perSecond);
        failures += withHooks.failed;
        // Off again, once its backlog is delivered: the next round starts clean.
        await receiver.quiet();
        await client.send('POST', `/v1/webhook_endpoints/${endpoint}`, auth, { disabled: true });
      }
      failures += without.failed;
    }
    return { engine, delivery: measured, latency, off, on, shop, failures };
  } finally {
    client.close();
    receiver.close();
    await stop(service);
  }
}

const loadNow = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const results: EngineResult[] = [];
const engines = values.engine ? [values.engine] : ['embedded', 'postgres'];
const loadBefore = loadNow();
log(`bench:webhooks on ${cpus().length} CPUs (load ${loadBefore})`);
if (engines.includes('embedded')) results.push(await runEngine('embedded'));
if (engines.includes('postgres')) {
  const server = await startPostgres({ durable: true });
  try {
    const base = values.tcp ? server.url : server.socketUrl;
    results.push(await runEngine('postgres', await createDatabase(base)));
  } finally {
    server.stop();
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
let pass = true;
// The machine is shared: its load beside the figures says how far to trust them.
process.stdout.write(`\n${cpus().length} CPUs, load average (1, 5, 15 min) ${loadBefore} before the run, ${loadNow()} after\n`);
process.stdout.write(`\nWebhook delivery (one endpoint taking *, a receiver answering 204): ${SECONDS} s of creates (one event each) from ${CONCURRENCY} clients, then from ${LATENCY_CLIENTS}\n`);
process.stdout.write('engine     clients  creates/s  delivered/s  (during load)  commit→delivery p50       p99  backlog after load\n');
for (const { engine, delivery: d, latency: l } of results)
  for (const [clients, x] of [[CONCURRENCY, d], [LATENCY_CLIENTS, l]] as const)
    process.stdout.write(
      `${engine.padEnd(10)} ${String(clients).padStart(7)}  ${String(round(x.createsPerSecond)).padStart(9)}  ${String(round(x.deliveredPerSecond)).padStart(11)}  ${String(round(x.deliveredDuringLoad)).padStart(13)}  ${`${round(x.p50)} ms`.padStart(19)}  ${`${round(x.p99)} ms`.padStart(8)}  ${round(x.backlogMs / 1000, 2)} s\n`,
    );
process.stdout.write(
  `\nComplete payments per second (create, token, attach, confirm, authorise) without webhooks, with an endpoint taking every event (*: four per payment), and with one taking ${SHOP_EVENTS.join(' and ')} (a shop's: one per payment); ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONCURRENCY} clients\n`,
);
for (const { engine, off, on, shop, failures } of results) {
  const ratio = sum(on) / sum(off);
  const shopRatio = sum(shop) / sum(off);
  process.stdout.write(
    `${engine.padEnd(10)} without ${off.map((v) => round(v)).join(', ')} /s   with * ${on.map((v) => round(v)).join(', ')} /s (${ratio.toFixed(2)}×)   with a shop's ${shop.map((v) => round(v)).join(', ')} /s (${shopRatio.toFixed(2)}×)${failures ? `   (${failures} failed requests)` : ''}\n`,
  );
  for (const [what, value] of [['every event (*)', ratio], ["a shop's events", shopRatio]] as const) {
    const ok = value >= GOAL;
    pass &&= ok;
    process.stdout.write(`${ok ? 'PASS' : 'FAIL'} ${engine}: payments/s with webhooks (${what}) ≥ ${GOAL}× without (${value.toFixed(2)}×)\n`);
  }
}
clearTimeout(watchdog);
process.exit(pass ? 0 : 1);
