/**
 * PostgreSQL going away and coming back, around a real service on a real database: the database is
 * reached through a TCP switch the test turns off (every connection reset, as a stopped server or a
 * broken network does) and on again. Requests meanwhile answer 503 database_unavailable with
 * Retry-After, the outage is one log line (and its end another), never a stack trace per request;
 * the first request after the return is served. A service started while the database is away waits
 * for it, says so, and answers 503 until it comes. A schema newer than the build stops both the
 * service and `npm run migrate`, naming both versions. Runs in the PostgreSQL leg.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { systemClock } from '../../server/clock.ts';
import { createLogger } from '../../server/logger.ts';
import { startService, type RunningService } from '../../server/start.ts';
import { unreachableReason } from '../../server/store/pg-availability.ts';
import { BUILD_SCHEMA_VERSION } from '../../server/store/pg-migrate.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { testConfig, testEngine } from '../helpers/service.ts';
import { TcpSwitch } from './tcp-switch.ts';
import { npmRunSync } from '../../testkit/processes.ts';
import { waitFor } from '../../testkit/wait.ts';
import { Receiver } from '../helpers/receiver.ts';

const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
const cleanup: (() => Promise<unknown>)[] = [];
after(() => Promise.all(cleanup.map((close) => close())));

type Line = Record<string, any> & { msg: string; level: string };

/** The service's log lines as they are written, awaitable. */
class LogLines {
  readonly lines: Line[] = [];
  readonly #waiters = new Set<() => void>();
  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const text of chunk.toString().split('\n').filter(Boolean)) this.lines.push(JSON.parse(text));
      for (const wake of this.#waiters) wake();
      done();
    },
  });

  count(msg: RegExp): number {
    return this.lines.filter((line) => msg.test(line.msg)).length;
  }

  /** The first line whose msg matches, waiting for it. */
  next(msg: RegExp): Promise<Line> {
    return new Promise((resolve) => {
      const check = () => {
        const line = this.lines.find((l) => msg.test(l.msg));
        if (!line) return;
        this.#waiters.delete(check);
        resolve(line);
      };
      this.#waiters.add(check);
      check();
    });
  }
}

/** A new database behind a switch, and a config for a service on it (port 0). */
async function databaseBehindSwitch() {
  const url = await freshTestDatabase();
  const { hostname, port } = new URL(url);
  const proxy = await TcpSwitch.open({ host: hostname, port: Number(port) });
  cleanup.push(() => proxy.close());
  const log = new LogLines();
  const config = testConfig({ databaseUrl: proxy.route(url), databasePool: 4 });
  const start = () => startService(config, systemClock, createLogger({ level: 'info', out: log.stream })).then((service) => (cleanup.push(() => service.close()), service));
  return { proxy, log, start, url };
}

async function call(service: { url: string }, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, any> };
}

/** One request of each kind: messaging reads and writes, payment reads and writes. */
const everyKind = (service: RunningService) => {
  const { accessToken, licenceKey, merchantId } = service.credentials;
  return Promise.all([
    call(service, 'GET', '/v1/contacts', accessToken),
    call(service, 'POST', '/v1/contacts', accessToken, { username: 'during', phone_number: '+441234567' }),
    call(service, 'GET', '/v1/conversations?limit=3', accessToken),
    call(service, 'POST', '/v1/payment_intents', licenceKey, { merchantid: merchantId, amount: 100, currency: 'GBP', identifier: 'outage' }),
    call(service, 'GET', '/v1/payment_intents/pi_nothing', licenceKey),
  ]);
};

describe('PostgreSQL unreachable', onPostgres, () => {
  test('under a running service: every request is 503 database_unavailable with Retry-After, one log line per outage, served again at once', async () => {
    const { proxy, log, start } = await databaseBehindSwitch();
    const service = await start();
    const { accessToken } = service.credentials;
    assert.equal((await call(service, 'POST', '/v1/contacts', accessToken, { username: 'before', phone_number: '+441234567' })).status, 200);

    for (let outage = 1; outage <= 2; outage++) {
      proxy.down();
      for (let round = 0; round < 3; round++) {
        for (const answer of await everyKind(service)) {
          assert.equal(answer.status, 503, JSON.stringify(answer.body));
          assert.deepEqual({ ...answer.body.error, message: undefined }, { type: 'api_error', code: 'database_unavailable', message: undefined, param: null });
          assert.equal(answer.retryAfter, '1');
        }
      }
      assert.equal(log.count(/^database unavailable/), outage, `one line for outage ${outage}, not one per request`);
      const others = log.lines.filter((line) => line.level === 'error' && !/^database unavailable/.test(line.msg));
      assert.deepEqual(others, [], 'no other error line (no stack per request)');
      assert.ok(!log.lines.some((line) => line.stack), 'no stack trace');
      proxy.up();
      // The first request after the database returns is served: no wait, no retry.
      const first = await call(service, 'GET', '/v1/contacts?limit=100', accessToken);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.data.map((c: { username: string }) => c.username), ['before'], 'nothing of the refused requests was written');
      assert.equal(log.count(/^database available again/), outage);
    }
    const unavailable = log.lines.find((line) => /^database unavailable/.test(line.msg))!;
    assert.match(unavailable.database, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\//, 'names the database (no password)');
    assert.ok(unavailable.reason, 'and why');
  });

  test("webhooks after an outage: the process takes its claims' owner lock again (another process would take its claims for a dead one's), and delivers", async () => {
    const { proxy, log, start, url } = await databaseBehindSwitch();
    const service = await start();
    const { licenceKey, merchantId } = service.credentials;
    const receiver = await Receiver.start();
    cleanup.push(() => receiver.close());
    assert.equal((await call(service, 'POST', '/v1/webhook_endpoints', licenceKey, { url: receiver.url, enabled_events: ['payment_intent.created'] })).status, 200);
    const create = async (identifier: string) => {
      const made = await call(service, 'POST', '/v1/payment_intents', licenceKey, { merchantid: merchantId, amount: 100, currency: 'GBP', identifier });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      await receiver.until(() => receiver.received.some((r) => r.status === 200 && r.body.includes(`"identifier":"${identifier}"`)));
    };
    await create('before');
    // Straight to the database (not through the switch): the owner locks of webhook claims held there.
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    cleanup.push(() => direct.end());
    const ownerLocks = async () => (await direct.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())", [0x6370])).rows[0].n as number;
    assert.equal(await ownerLocks(), 1);
    proxy.down();
    await call(service, 'GET', '/v1/payment_intents/pi_nothing', licenceKey);
    // The lock's connection was reset: PostgreSQL let go of the lock.
    await waitFor('the owner lock released with its connection', async () => (await ownerLocks()) === 0);
    proxy.up();
    await create('after');
    // Rows and locks another connection holds: nothing announces them, so they are polled (testkit/wait.ts).
    await waitFor('the owner lock held again', async () => (await ownerLocks()) === 1);
    const again = log.lines.filter((line) => line.level === 'error' && !/^database unavailable/.test(line.msg));
    assert.deepEqual(again, [], 'the outage is not logged again by the deliverer');
  });

  test('at start: the service waits for it with backoff, says what it waits for, answers 503 meanwhile, and serves once it is up', async () => {
    const { proxy, log, start } = await databaseBehindSwitch();
    proxy.down();
    const starting = start();
    const { port } = await log.next(/^listening$/);
    const waiting = await log.next(/^waiting for the database/);
    assert.match(waiting.database, new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:${proxy.port}/`));
    assert.ok(waiting.reason && waiting.retry_in_ms > 0, JSON.stringify(waiting));
    const meanwhile = await fetch(`http://127.0.0.1:${port}/v1/contacts`);
    assert.equal(meanwhile.status, 503);
    assert.equal(meanwhile.headers.get('retry-after'), '1');
    assert.equal(((await meanwhile.json()) as { error: { code: string } }).error.code, 'database_unavailable');
    proxy.up();
    const service = await starting;
    assert.equal((await call(service, 'GET', '/v1/contacts', service.credentials.accessToken)).status, 200);
  });

  test('a schema newer than the build stops the service and npm run migrate, naming both versions', async () => {
    const url = await freshTestDatabase();
    const migrate = () => npmRunSync(['migrate'], { ...process.env, CPE_DATABASE_URL: url });
    assert.equal(migrate().status, 0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`INSERT INTO schema_migrations (version, name) VALUES (9999, 'from a newer build')`);
    await client.end();
    const newer = new RegExp(`schema is at version 9999, newer than this build of CPE knows \\(schema version ${BUILD_SCHEMA_VERSION}\\)`);
    const refused = migrate();
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, newer);
    await assert.rejects(startService(testConfig({ databaseUrl: url }), systemClock, createLogger({ level: 'silent' })), newer);
  });
});

describe('what counts as the database being unreachable', () => {
  test('socket errors, connection exceptions and server shutdowns do; a statement the database refuses does not', () => {
    const error = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'x')), fields);
    for (const unreachable of [
      error({ code: 'ECONNREFUSED' }),
      error({ code: 'ECONNRESET' }),
      error({ code: 'ENOTFOUND' }),
      error({ code: '57P01', message: 'terminating connection due to administrator command' }),
      error({ code: '57P03', message: 'the database system is starting up' }),
      error({ code: '08006' }),
      error({ message: 'Connection terminated unexpectedly' }),
      error({ message: 'timeout exceeded when trying to connect' }),
      error({ message: 'timeout expired' }),
      Object.assign(new AggregateError([error({ code: 'ECONNREFUSED' })]), {}),
    ])
      assert.ok(unreachableReason(unreachable), `${(unreachable as { code?: string }).code ?? unreachable.message}`);
    for (const refused of [error({ code: '23505' }), error({ code: '42P01' }), error({ code: '28P01', message: 'password authentication failed' }), new Error('no such thing'), undefined])
      assert.equal(unreachableReason(refused), undefined, `${(refused as { code?: string } | undefined)?.code}`);
  });
});
