import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { PgClaims } from '../../server/webhooks/pg-claims.ts';
import type { DeliveryRow } from '../../server/webhooks/deliveries.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { PgStore } from '../../server/store/pg-store.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { startServiceChild, stop, type ServiceChild } from '../../testkit/processes.ts';
import { waitFor } from '../../testkit/wait.ts';
import { Receiver } from '../helpers/receiver.ts';
import { testEngine } from '../helpers/service.ts';

/**
 * Webhook delivery across restarts, kill -9 and processes, with real service processes (`npm
 * start`'s): pending attempts survive a kill -9 and are delivered after the restart (both engines);
 * two and three processes on one PostgreSQL database deliver each event once to a receiver that
 * answers 200, never two attempts of one event to one endpoint at once, and one process killed
 * mid-delivery loses nothing. Every wait is for something the receiver or the API tells.
 */
const root = join(import.meta.dirname, '../..');
const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
// The default 10 s timeout: a loaded machine's receiver answering late would be a retry, which the
// no-duplicate tests would count; retries soon, for the receivers that fail on purpose.
const ENV = { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn', CPE_WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms,200ms,200ms,200ms,200ms,200ms,200ms' };
const running: ServiceChild[] = [];
const receivers: Receiver[] = [];
const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(running.map((s) => stop(s)));
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(pools.map((p) => p.end()));
});

/**
 * Waits until no delivery is pending (a finished one's row goes), and answers the attempts made:
 * once nothing is pending, nothing is ever sent again, so a count taken then is final.
 */
async function settled(databaseUrl: string): Promise<{ attempts: number; succeeded: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pools.push(pool);
  // Rows other processes write: nothing announces them, so they are polled (testkit/wait.ts).
  return waitFor(
    'no delivery pending',
    async () => {
      const { rows } = await pool.query(
        `SELECT (SELECT count(*) FROM webhook_deliveries)::int AS pending, (SELECT count(*) FROM webhook_attempts)::int AS attempts, (SELECT count(DISTINCT event_id) FROM webhook_attempts WHERE result = 'succeeded')::int AS succeeded`,
      );
      return rows[0].pending === 0 && { attempts: rows[0].attempts as number, succeeded: rows[0].succeeded as number };
    },
    { timeoutMs: 60_000 },
  );
}

async function call(base: string, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function service(dataDir: string, databaseUrl?: string): Promise<ServiceChild> {
  const child = await startServiceChild(root, dataDir, { ...ENV, ...(databaseUrl ? { CPE_DATABASE_URL: databaseUrl } : {}) });
  running.push(child);
  return child;
}

const kill9 = (child: ServiceChild) =>
  new Promise<void>((resolve) => {
    child.proc.once('exit', () => resolve());
    child.proc.kill('SIGKILL');
  });

/** Every payment event's id, through the API. */
async function eventIds(base: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  for (;;) {
    const page = await call(base, 'GET', `/v1/events?limit=100${cursor}`, key);
    ids.push(...page.body.data.map((e: any) => e.id));
    if (!page.body.has_more) return ids;
    cursor = `&starting_after=${ids.at(-1)}`;
  }
}

async function receiverEndpoint(base: string, key: string): Promise<Receiver> {
  const receiver = await Receiver.start();
  receivers.push(receiver);
  const made = await call(base, 'POST', '/v1/webhook_endpoints', key, { url: receiver.url, enabled_events: ['*'] });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return receiver;
}

const createIntent = (base: string, child: ServiceChild, n: number) =>
  call(base, 'POST', '/v1/payment_intents', child.credentials.licenceKey, { merchantid: child.credentials.merchantId, amount: 100 + n, currency: 'GBP', identifier: `p${n}` });

describe('pending attempts survive kill -9', () => {
  test(`on ${testEngine()}: kill -9 with attempts failing and in flight, then every event is delivered after the restart`, async () => {
    const dataDir = tempDataDir();
    const databaseUrl = testEngine() === 'postgres' ? await freshTestDatabase() : undefined;
    const first = await service(dataDir, databaseUrl);
    const key = first.credentials.licenceKey;
    const receiver = await receiverEndpoint(first.url, key);
    // Failing, then hanging: some deliveries wait for a retry, some are in flight at the kill.
    receiver.reply = (_, n) => (n <= 10 ? { status: 503 } : 'hang');
    for (let n = 0; n < 10; n++) assert.equal((await createIntent(first.url, first, n)).status, 200);
    await receiver.count(12);
    await kill9(first);
    receiver.release(503);
    receiver.reply = () => ({ status: 200 });
    const second = await service(dataDir, databaseUrl);
    const ids = await eventIds(second.url, key);
    assert.equal(ids.length, 10, 'the ten creates, each an event');
    await receiver.until(() => ids.every((id) => receiver.delivered().has(id)));
    assert.ok(receiver.maxConcurrentPerId <= 1, 'never two attempts of one event at once');
  });
});

describe('several processes on one PostgreSQL database', onPostgres, () => {
  for (const count of [2, 3]) {
    test(`${count} processes: each event delivered once to a receiver that answers 200, one attempt in flight at a time`, async () => {
      const dataDir = tempDataDir();
      const databaseUrl = await freshTestDatabase();
      const processes: ServiceChild[] = [];
      for (let i = 0; i < count; i++) processes.push(await service(dataDir, databaseUrl));
      const key = processes[0].credentials.licenceKey;
      const receiver = await receiverEndpoint(processes[0].url, key);
      receiver.reply = () => ({ status: 200, delayMs: 20 });
      await Promise.all(Array.from({ length: 60 }, (_, n) => createIntent(processes[n % count].url, processes[0], n)));
      const ids = await eventIds(processes[0].url, key);
      assert.equal(ids.length, 60);
      await receiver.until(() => ids.every((id) => receiver.delivered().has(id)));
      // Every delivery succeeded: nothing will be sent again, so the counts are final.
      assert.deepEqual(await settled(databaseUrl), { attempts: 60, succeeded: 60 });
      assert.equal(receiver.received.length, 60, `no duplicate: ${receiver.received.length} requests for 60 events`);
      assert.equal(receiver.maxConcurrentPerId, 1);
    });
  }

  test('3 processes, one killed (kill -9) mid-delivery: every event still delivered, never two attempts of one at once', async () => {
    const dataDir = tempDataDir();
    const databaseUrl = await freshTestDatabase();
    const processes = [await service(dataDir, databaseUrl), await service(dataDir, databaseUrl), await service(dataDir, databaseUrl)];
    const key = processes[0].credentials.licenceKey;
    const receiver = await receiverEndpoint(processes[0].url, key);
    receiver.reply = () => ({ status: 200, delayMs: 100 });
    await Promise.all(Array.from({ length: 30 }, (_, n) => createIntent(processes[n % 3].url, processes[0], n)));
    await receiver.count(5);
    await kill9(processes[1]);
    const ids = await eventIds(processes[0].url, key);
    await receiver.until(() => ids.every((id) => receiver.delivered().has(id)));
    const { succeeded } = await settled(databaseUrl);
    assert.equal(succeeded, 30);
    assert.equal(receiver.maxConcurrentPerId, 1);
  });
});

describe('claims of one database only', onPostgres, () => {
  test("an owner lock held in another database of the server does not keep this database's claim alive", async () => {
    const [mine, other] = [await freshTestDatabase(), await freshTestDatabase()];
    // A process of the other database holds owner lock 4242 (advisory locks are per database).
    const holder = new pg.Client({ connectionString: other });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1, $2)', [0x6370, 4242]);
    const store = (await openStore({ databaseUrl: mine })) as PgStore;
    const claims = new PgClaims(store);
    try {
      const now = Date.now();
      const row = { lease_owner: 4242, lease_until: now + 600_000 } as unknown as DeliveryRow;
      assert.equal(await claims.inFlight(row, now), false, 'owner 4242 of this database is gone: its claim is not in flight');
      const local = new pg.Client({ connectionString: mine });
      await local.connect();
      await local.query('SELECT pg_advisory_lock($1, $2)', [0x6370, 4242]);
      assert.equal(await claims.inFlight(row, now), true, 'owner 4242 of this database holds its lock: in flight');
      await local.end();
    } finally {
      await claims.stop();
      await store.close();
      await holder.end();
    }
  });
});
