import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { isListening, npmRunSync, serviceEntry, spawnNode, startServiceChild, stop, type ServiceChild } from '../../testkit/processes.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { waitFor } from '../../testkit/wait.ts';
import { MIGRATIONS } from '../../server/store/pg-schema.ts';
import { embeddedOnly, testEngine } from '../helpers/service.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Several service processes on one PostgreSQL database (CPE_DATABASE_URL), started by hand as an
 * operator would, on ports of their own and one CPE_DATA_DIR: what one process writes, the other
 * reads at once; idempotency keys, intent transitions and rate budgets hold across them; a kill -9
 * of one loses no acknowledged write. Runs in the PostgreSQL leg of the suite (CPE_TEST_ENGINE=postgres).
 */
const root = join(import.meta.dirname, '../..');
const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
const QUIET = { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn' };
const running: ServiceChild[] = [];
const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(running.map((s) => stop(s)));
  await Promise.all(pools.map((p) => p.end()));
});

async function twoServices(env: Record<string, string> = {}) {
  const databaseUrl = await freshTestDatabase();
  const dir = tempDataDir();
  const a = await startServiceChild(root, dir, { ...QUIET, CPE_DATABASE_URL: databaseUrl, ...env });
  const b = await startServiceChild(root, dir, { ...QUIET, CPE_DATABASE_URL: databaseUrl, ...env });
  running.push(a, b);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pools.push(pool);
  return { a, b, dir, databaseUrl, pool };
}

/**
 * One pair for the tests that only race requests (each on ids and keys of its own): a pair costs two
 * service starts, the suite's slowest part. Tests that kill a process or need other settings start their own.
 */
let sharedPair: ReturnType<typeof twoServices> | undefined;
const sharedServices = () => (sharedPair ??= twoServices());

type Json = Record<string, any>;
async function call(base: string, method: string, path: string, auth: string, body?: Json, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const card = (number: string) => ({ number, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'Ada Lovelace' });

/** An intent ready to authorise (frictionless card), made through `base`. */
async function readyIntent(base: string, key: string, merchantId: number, autoCapture = true, number = '4242424242424242') {
  const intent = await call(base, 'POST', '/v1/payment_intents', key, { merchantid: merchantId, amount: 1999, currency: 'EUR', identifier: `order-${Math.random()}`, autoCapture });
  assert.equal(intent.status, 200, JSON.stringify(intent.body));
  const id = intent.body.paymentIntentId as string;
  const token = await call(base, 'POST', '/v1/tokens', key, { card: card(number) });
  assert.equal(token.status, 200, JSON.stringify(token.body));
  assert.equal((await call(base, 'POST', '/v1/payment_intents/attach', key, { payment_intent_id: id, token: token.body.data.cp_card_token })).status, 200);
  assert.equal((await call(base, 'POST', '/v1/payment_intents/confirm', key, { payment_intent_id: id })).status, 200);
  return id;
}

describe('several processes on one PostgreSQL database', onPostgres, () => {
  test('a write through one process is read at once through the other; the first start seeded once', async () => {
    const { a, b, pool } = await sharedServices();
    assert.deepEqual(a.credentials, b.credentials, 'both processes serve the one seeded merchant and user');
    const token = a.credentials.accessToken;
    for (let i = 0; i < 20; i++) {
      const created = await call(i % 2 ? a.url : b.url, 'POST', '/v1/contacts', token, { username: `c${i}`, phone_number: '+441234567' });
      assert.equal(created.status, 200);
      const read = await call(i % 2 ? b.url : a.url, 'GET', `/v1/contacts/${created.body.id}`, token);
      assert.equal(read.status, 200, `contact ${i} written through one process is read through the other at once`);
      const list = await call(i % 2 ? b.url : a.url, 'GET', '/v1/contacts?limit=1', token);
      assert.equal(list.body.data[0].id, created.body.id);
    }
    const { rows } = await pool.query('SELECT (SELECT count(*) FROM merchants)::int AS merchants, (SELECT count(*) FROM users)::int AS users');
    assert.deepEqual(rows[0], { merchants: 1, users: 1 });
  });

  test('three processes starting at once on a new database migrate and seed exactly once', async () => {
    const databaseUrl = await freshTestDatabase();
    const dir = tempDataDir();
    const three = await Promise.all([0, 1, 2].map(() => startServiceChild(root, dir, { ...QUIET, CPE_DATABASE_URL: databaseUrl })));
    running.push(...three);
    for (const service of three) assert.deepEqual(service.credentials, three[0].credentials);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    pools.push(pool);
    const { rows } = await pool.query(
      'SELECT (SELECT count(*) FROM merchants)::int AS merchants, (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM access_tokens)::int AS tokens, (SELECT count(*) FROM schema_migrations)::int AS migrations',
    );
    assert.deepEqual(rows[0], { merchants: 1, users: 1, tokens: 1, migrations: MIGRATIONS.length });
    for (const service of three) assert.equal((await call(service.url, 'GET', '/v1/contacts', service.credentials.accessToken)).status, 200);
  });

  test('one idempotency key raced through two processes makes one intent; every answer is the same', async () => {
    const { a, b, pool } = await sharedServices();
    const { licenceKey, merchantId } = a.credentials;
    for (let round = 0; round < 5; round++) {
      const key = `race-${round}`;
      const body = { merchantid: merchantId, amount: 500, currency: 'EUR', identifier: `idem-${round}` };
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call(i % 2 ? a.url : b.url, 'POST', '/v1/payment_intents', licenceKey, body, { 'X-Idempotency-Key': key })),
      );
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(new Set(answers.map((r) => r.body.paymentIntentId)).size, 1, 'every answer names the same intent');
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM payment_intents WHERE identifier = $1', [`idem-${round}`]);
      assert.equal(rows[0].n, 1, 'one intent was made');
    }
  });

  test('one group conversation raced through two processes: one is made, the other is told it exists (never a 500)', async () => {
    const { a, b, pool } = await sharedServices();
    const token = a.credentials.accessToken;
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        [a.url, b.url, a.url, b.url].map((base, i) => call(base, 'POST', '/v1/conversations', token, { group_id: `grp_race_${round}` }, { 'X-Idempotency-Key': `g${round}-${i}` })),
      );
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `one made: ${statuses}`);
      for (const r of answers.filter((r) => r.status !== 200)) assert.equal(r.body.error?.code, 'resource_already_exists', JSON.stringify(r.body));
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM conversations WHERE group_id = $1', [`grp_race_${round}`]);
      assert.equal(rows[0].n, 1);
    }
  });

  test('authorise raced through two processes authorises once', async () => {
    const { a, b, pool } = await sharedServices();
    const { licenceKey, merchantId } = a.credentials;
    for (let round = 0; round < 6; round++) {
      const id = await readyIntent(a.url, licenceKey, merchantId, round % 2 === 0);
      const answers = await Promise.all([a.url, b.url, a.url, b.url].map((base) => call(base, 'POST', '/v1/payment_intents/authorise', licenceKey, { payment_intent_id: id })));
      const authorised = answers.filter((r) => r.status === 200 && r.body.authorised === true);
      assert.equal(authorised.length, 1, `one authorisation: ${answers.map((r) => `${r.status} ${r.body.error?.code ?? r.body.status}`).join(', ')}`);
      for (const other of answers.filter((r) => r !== authorised[0])) assert.equal(other.body.error?.code, 'payment_intent_unexpected_state');
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM payment_attempts WHERE intent_id = $1 AND outcome = 'authorised'`, [id]);
      assert.equal(rows[0].n, 1);
    }
  });

  test('refunds raced through three processes never add up to more than was captured', async () => {
    const { a, b, dir, databaseUrl, pool } = await sharedServices();
    const c = await startServiceChild(root, dir, { ...QUIET, CPE_DATABASE_URL: databaseUrl });
    running.push(c);
    const { licenceKey, merchantId } = a.credentials;
    const bases = [a.url, b.url, c.url];
    for (let round = 0; round < 4; round++) {
      const id = await readyIntent(a.url, licenceKey, merchantId);
      assert.equal((await call(b.url, 'POST', '/v1/payment_intents/authorise', licenceKey, { payment_intent_id: id })).body.status, 'succeeded');
      // 1999 captured: refunds of 97 + round fit 1999 / (97 + round) times, whichever process takes each.
      const amount = 97 + round;
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => call(bases[i % 3], 'POST', '/v1/refunds', licenceKey, { payment_intent: id, amount })));
      const ok = answers.filter((r) => r.status === 200);
      assert.equal(ok.length, Math.floor(1999 / amount), answers.map((r) => `${r.status} ${r.body.error?.code ?? ''}`).join(', '));
      for (const refused of answers.filter((r) => r.status !== 200)) assert.ok(['amount_too_large', 'lock_timeout'].includes(refused.body.error?.code), JSON.stringify(refused.body));
      const { rows } = await pool.query(`SELECT (SELECT sum(amount)::int FROM refunds WHERE payment_intent = $1) AS refunded, amount_refunded::int, amount_captured::int FROM payment_intents WHERE id = $1`, [id]);
      assert.equal(rows[0].refunded, ok.length * amount, 'the refunds stored are the ones answered 200');
      assert.equal(rows[0].amount_refunded, rows[0].refunded);
      assert.ok(rows[0].refunded <= rows[0].amount_captured);
    }
  });

  test('a pending refund settles after kill -9 of the process that made it, once, by a process still running', async () => {
    const { a, b, pool } = await twoServices();
    const { licenceKey, merchantId } = a.credentials;
    const id = await readyIntent(a.url, licenceKey, merchantId, true, '4000000000005126');
    await call(a.url, 'POST', '/v1/payment_intents/authorise', licenceKey, { payment_intent_id: id });
    const pending = await call(a.url, 'POST', '/v1/refunds', licenceKey, { payment_intent: id, amount: 999 });
    assert.equal(pending.body.status, 'pending');
    a.proc.kill('SIGKILL');
    // The job of process b finds it due (a few seconds on the service's clock) and asks the processor.
    const refund = await waitFor(
      'the pending refund to settle through process b',
      async () => {
        const read = (await call(b.url, 'GET', `/v1/refunds/${pending.body.id}`, licenceKey)).body;
        return read.status !== 'pending' && read;
      },
      { timeoutMs: 30_000, everyMs: 200 },
    );
    assert.deepEqual([refund.status, refund.failure_reason], ['failed', 'expired_or_canceled_card']);
    assert.equal((await call(b.url, 'GET', `/v1/payment_intents/${id}`, licenceKey)).body.amount_refunded, 0);
    const { rows } = await pool.query(`SELECT status, settles_at FROM refunds WHERE payment_intent = $1`, [id]);
    assert.deepEqual(rows, [{ status: 'failed', settles_at: null }]);
  });

  test('one rate budget per credential across processes', async () => {
    const { a, b } = await twoServices({ CPE_RATE_LIMIT: '2', CPE_RATE_BURST: '10' });
    const token = a.credentials.accessToken;
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? a.url : b.url, 'GET', '/v1/contacts', token)));
    const seconds = (performance.now() - started) / 1000;
    const allowed = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429).length;
    assert.equal(allowed + refused, 40);
    // One budget: the burst of 10 plus what refills meanwhile; two budgets would have let 20 through.
    assert.ok(allowed <= 10 + Math.ceil(seconds * 2) + 1, `${allowed} allowed in ${seconds.toFixed(2)} s`);
    assert.ok(allowed >= 10, `${allowed} allowed: the burst is available`);
  });

  test('rate limiting while every connection of the pool holds a request transaction: no request waits for ever', async () => {
    const { a } = await twoServices({ CPE_RATE_LIMIT: '100000', CPE_DATABASE_POOL: '2' });
    const token = a.credentials.accessToken;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${a.url}/v1/contacts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ username: `p${i}`, phone_number: '+441234567' }),
          signal: AbortSignal.timeout(scaled(15_000)),
        }).then((r) => r.status),
      ),
    );
    assert.deepEqual(new Set(answers), new Set([200]));
  });

  test('a request that waits longer than the connect timeout for a busy pool is served, not answered 503', async () => {
    // node-postgres timed a wait for a free connection with its 5 s connect timeout: a busy, healthy
    // pool answered 503 database_unavailable (CI, the test above, under load). Of a pool of 2, one
    // connection keeps the process's owner lock; a write holds the other, blocked by a lock this test
    // holds; a second write waits for a connection past 5 s.
    const { a, pool } = await twoServices({ CPE_RATE_LIMIT: '100000', CPE_DATABASE_POOL: '2' });
    const token = a.credentials.accessToken;
    const blocked = async () =>
      (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n;
    const lock = await pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
      const write = (i: number) => call(a.url, 'POST', '/v1/contacts', token, { username: `busy${i}`, phone_number: '+441234567' }).then((r) => r.status);
      const first = write(0);
      await waitFor('the first write blocked on the lock, holding the connection', async () => (await blocked()) === 1);
      const second = write(1);
      // Past the connect timeout (5 s): how long the second write waits for a connection, not a wait for an event.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      assert.equal(await blocked(), 1, 'the second write waited for a connection, not on the lock');
      await lock.query('COMMIT');
      assert.deepEqual(await Promise.all([first, second]), [200, 200]);
    } finally {
      lock.release();
    }
  });

  test('kill -9 of one process during writes through both loses no acknowledged write', async () => {
    const { a, b } = await twoServices();
    const token = a.credentials.accessToken;
    const acknowledged: string[] = [];
    let answered = 0;
    let enough!: () => void;
    const killPoint = new Promise<void>((resolve) => (enough = resolve));
    const burst = Array.from({ length: 300 }, (_, i) =>
      fetch(`${i % 2 ? a.url : b.url}/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: `k${i}`, phone_number: '+441234567' }),
        signal: AbortSignal.timeout(scaled(30_000)),
      })
        .then(async (r) => (r.status === 200 ? ((await r.json()) as { id: string }).id : undefined))
        .then(
          (id) => {
            if (id) acknowledged.push(id);
            if (++answered >= 60) enough();
          },
          () => enough(),
        ),
    );
    await killPoint;
    a.proc.kill('SIGKILL');
    await Promise.all(burst);
    assert.ok(acknowledged.length >= 60, `${acknowledged.length} acknowledged`);
    for (const id of acknowledged) assert.equal((await call(b.url, 'GET', `/v1/contacts/${id}`, token)).status, 200, `acknowledged ${id} survives`);
  });

  test('the CLI works against the database directly, service running or not', async () => {
    const databaseUrl = await freshTestDatabase();
    const dir = tempDataDir();
    const env = { ...process.env, CPE_DATA_DIR: dir, CPE_DATABASE_URL: databaseUrl };
    const cli = (args: string[]) => npmRunSync(args, env);
    const migrated = cli(['migrate']);
    assert.equal(migrated.status, 0, migrated.stderr);
    const versions = MIGRATIONS.map((m) => m.version).sort((a, b) => a - b);
    assert.deepEqual(JSON.parse(migrated.stdout), { applied: versions, version: versions.at(-1) }, 'npm run migrate makes the schema of a new database');
    assert.deepEqual(JSON.parse(cli(['migrate']).stdout), { applied: [], version: versions.at(-1) }, 'and then has nothing left to do');
    const before = cli(['token', '--', 'alice']);
    assert.equal(before.status, 0, before.stderr);
    const service = await startServiceChild(root, dir, { ...QUIET, CPE_DATABASE_URL: databaseUrl });
    running.push(service);
    assert.equal((await call(service.url, 'GET', '/v1/contacts', before.stdout.trim())).status, 200, 'a token made before the start works');
    const during = cli(['token', '--', 'bob']);
    assert.equal(during.status, 0, during.stderr);
    assert.equal((await call(service.url, 'GET', '/v1/contacts', during.stdout.trim())).status, 200, 'a token made while it runs works at once');
    const merchant = cli(['merchant', '--', '--origin', 'https://shop.example']);
    assert.equal(merchant.status, 0, merchant.stderr);
    const { licenceKey } = JSON.parse(merchant.stdout);
    assert.equal((await call(service.url, 'POST', '/v1/tokens', licenceKey, { card: card('4242424242424242') })).status, 200);
    const credentials = cli(['credentials']);
    assert.equal(credentials.status, 0, credentials.stderr);
    assert.equal(JSON.parse(credentials.stdout).merchantId, service.credentials.merchantId);
  });

  test('CPE_PROCESSES=2: two workers on one port; a worker killed is replaced and the port keeps answering', async () => {
    const databaseUrl = await freshTestDatabase();
    const dir = tempDataDir();
    const child = spawnNode('cluster', serviceEntry(), {
      cwd: root,
      env: { ...QUIET, PORT: '0', DEMO_PORT: '0', CPE_DATA_DIR: dir, CPE_DATABASE_URL: databaseUrl, CPE_PROCESSES: '2', CPE_PUBLIC_URL: 'http://127.0.0.1:0' },
    });
    try {
      // Every line is heard as it comes (none lost to a cut buffer), each wait has a deadline, and
      // the child's exit ends it at once.
      const { serviceUrl: url } = await child.message(isListening, 'both workers serving', 60_000);
      const [, first, second] = await child.line(/Processes\s+2 worker processes \(pids (\d+), (\d+)\)/);
      const token = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).accessToken as string;
      for (let i = 0; i < 10; i++) assert.equal((await call(url, 'POST', '/v1/contacts', token, { username: `w${i}`, phone_number: '+441234567' })).status, 200);
      process.kill(Number(first), 'SIGKILL');
      await child.line(new RegExp(`worker ${first} exited \\(SIGKILL\\): starting another`));
      for (let i = 0; i < 10; i++) {
        const list = await call(url, 'GET', '/v1/contacts?limit=100', token);
        assert.equal(list.status, 200);
        assert.equal(list.body.data.length, 10);
      }
      assert.ok(Number(second) > 0);
    } finally {
      await stop(child);
    }
  });
});

describe('the embedded store and processes', embeddedOnly, () => {
  test('PORT=0 DEMO_PORT=0: npm start binds free ports, tells its parent both, and the seeded merchant may embed the frames in the demo', async () => {
    const service = await startServiceChild(root, tempDataDir(), QUIET);
    running.push(service);
    const demo = new URL(service.demoUrl);
    assert.notEqual(demo.port, '0');
    assert.equal((await fetch(service.demoUrl)).ok, true, 'the demo answers where it said');
    const frame = await fetch(`${service.url}/frames/card-form/?pk=${service.credentials.publicKey}&lang=en`);
    await frame.arrayBuffer();
    assert.match(frame.headers.get('content-security-policy') ?? '', new RegExp(`frame-ancestors[^;]*http://localhost:${demo.port}`));
  });

  test('a second process on the same data folder is refused, naming the one that holds it and CPE_DATABASE_URL', async () => {
    const dir = tempDataDir();
    const first = await startServiceChild(root, dir, QUIET);
    running.push(first);
    await assert.rejects(startServiceChild(root, dir, QUIET), (error: Error) => {
      assert.match(error.message, new RegExp(`in use by process ${first.proc.pid}`));
      assert.match(error.message, /CPE_DATABASE_URL/);
      return true;
    });
    const token = first.credentials.accessToken;
    assert.equal((await call(first.url, 'GET', '/v1/contacts', token)).status, 200, 'the first one still serves');
  });

  test('CPE_PROCESSES above 1 without CPE_DATABASE_URL stops with a message', () => {
    const result = spawnSync(process.execPath, serviceEntry(), { cwd: root, env: { ...process.env, CPE_PROCESSES: '2', CPE_DATABASE_URL: '', CPE_DATA_DIR: tempDataDir() }, encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /CPE_PROCESSES=2 needs CPE_DATABASE_URL/);
  });
});
