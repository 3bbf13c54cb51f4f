import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { configFromEnv } from '../../server/config.ts';
import { pruneExpired } from '../../server/services.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { answerChallenge, assertError, backend, CARDS, createIntent, getIntent, readyToAuthorise, tokenOf } from './payments-fixtures.ts';

/** Time moves by the service's clock here: no stored row is rewritten, nothing sleeps. */

const rowCount = async (svc: TestService, name: string) => (await svc.services.store.collection<{ id: string }>(name).all()).length;

async function withService(clock: ManualClock, retention: number | undefined, run: (svc: TestService) => Promise<void>) {
  const svc = await startTestService(retention === undefined ? {} : { idempotencyRetentionSeconds: retention }, clock);
  try {
    await run(svc);
  } finally {
    await svc.close();
  }
}

describe('idempotency retention', () => {
  const create = (svc: TestService, key: string) =>
    svc.api('POST', '/v1/payment_intents', {
      token: svc.credentials.licenceKey,
      json: { merchantid: svc.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'kept' },
      headers: { 'X-Idempotency-Key': key },
    });

  test('by default a key replays for 24 hours, then runs as a new request, and pruning drops its record', async () => {
    const clock = new ManualClock();
    await withService(clock, undefined, async (svc) => {
      const first = await create(svc, 'day-key');
      clock.advance(24 * 3600 - 1);
      const replay = await create(svc, 'day-key');
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.paymentIntentId, first.body.paymentIntentId);
      assert.equal(await rowCount(svc, 'idempotency_keys'), 1);
      assert.equal((await pruneExpired(svc.services)).idempotencyKeys, 0, 'nothing is pruned before its time');

      clock.advance(1);
      const fresh = await create(svc, 'day-key');
      assert.equal(fresh.headers.get('idempotent-replayed'), null);
      assert.notEqual(fresh.body.paymentIntentId, first.body.paymentIntentId);

      // The record of the fresh run is new; once it too is past retention (and its hour is over), it goes.
      clock.advance(24 * 3600 + 3600);
      assert.equal((await pruneExpired(svc.services)).idempotencyKeys, 1);
      assert.equal(await rowCount(svc, 'idempotency_keys'), 0);
    });
  });

  test('CPE_IDEMPOTENCY_RETENTION shortens it', async () => {
    const clock = new ManualClock();
    await withService(clock, 60, async (svc) => {
      const first = await create(svc, 'minute-key');
      clock.advance(59);
      assert.equal((await create(svc, 'minute-key')).body.paymentIntentId, first.body.paymentIntentId);
      clock.advance(1);
      assert.notEqual((await create(svc, 'minute-key')).body.paymentIntentId, first.body.paymentIntentId);
    });
  });

  test('a thousand expired records are pruned, and only they', async () => {
    const clock = new ManualClock(1_800_000_000);
    await withService(clock, 60, async (svc) => {
      // Eight requests at a time, as clients would send them (one at a time took 16 s on PostgreSQL).
      for (let start = 0; start < 1000; start += 8) {
        await Promise.all(
          Array.from({ length: 8 }, (_, j) => start + j).map((i) =>
            svc.api('POST', '/v1/contacts', { token: svc.credentials.accessToken, json: { username: `u${i}`, phone_number: '+441234567' }, headers: { 'X-Idempotency-Key': `k${i}` } }),
          ),
        );
      }
      clock.advance(2 * 3600);
      await svc.api('POST', '/v1/contacts', { token: svc.credentials.accessToken, json: { username: 'late', phone_number: '+441234567' }, headers: { 'X-Idempotency-Key': 'late' } });
      assert.equal((await pruneExpired(svc.services)).idempotencyKeys, 1000);
      assert.equal(await rowCount(svc, 'idempotency_keys'), 1);
      assert.equal(await rowCount(svc, 'contacts'), 1001, 'pruning touches only idempotency records');
    });
  });
});

describe('expiry of tokens and challenges', () => {
  test('a token is refused as expired after 15 minutes, and pruned an hour later (then it is unknown)', async () => {
    const clock = new ManualClock();
    await withService(clock, undefined, async (svc) => {
      const s = await createIntent(svc);
      const token = await tokenOf(svc, s, CARDS.visa);
      clock.advance(15 * 60 - 1);
      const spare = await tokenOf(svc, s, CARDS.visa);
      clock.advance(1);
      const expired = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token });
      assertError(expired, 400, 'token');
      assert.equal(expired.body.error.code, 'token_expired');
      // Still waiting for a card, as the tokenise (the session's first request) left it.
      assert.equal((await getIntent(svc, s.paymentIntentId)).status, 'requires_payment_method');
      assert.equal(await rowCount(svc, 'card_tokens'), 2);

      // Pruned within the hour after their time (they are dropped by the hour): three hours is past both.
      clock.advance(3 * 3600);
      assert.equal((await pruneExpired(svc.services)).tokens, 2);
      assert.equal(await rowCount(svc, 'card_tokens'), 0);
      const gone = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: spare });
      assertError(gone, 404, 'token');
    });
  });

  test('challenges, answered or not, are pruned after their expiry; an expired one no longer answers', async () => {
    const clock = new ManualClock();
    await withService(clock, undefined, async (svc) => {
      const answered = await readyToAuthorise(svc, CARDS.challenge);
      assert.equal((await answerChallenge(svc, answered.confirm.challenge.url, 'complete')).status, 200);
      const pending = await readyToAuthorise(svc, CARDS.challenge);
      assert.equal(await rowCount(svc, 'three_ds_challenges'), 2);
      clock.advance(15 * 60);
      assert.equal((await fetch(pending.confirm.challenge.url)).status, 404, 'an expired challenge page is gone');
      assert.equal((await pruneExpired(svc.services)).challenges, 0, 'kept an hour past expiry');
      clock.advance(3 * 3600);
      assert.equal((await pruneExpired(svc.services)).challenges, 2);
      assert.equal(await rowCount(svc, 'three_ds_challenges'), 0);
    });
  });
});

describe('configuration from the environment', () => {
  test("every variable of docs/operations.md's environment table is read (the table and this list are the same)", () => {
    const env = {
      PORT: '5000',
      DEMO_PORT: '5001',
      CPE_DATA_DIR: '/tmp/cpe-config-test',
      CPE_PUBLIC_URL: 'https://pay.example',
      CPE_RATE_LIMIT: '7',
      CPE_RATE_BURST: '9',
      CPE_TOKENISE_RATE_PER_IP: '3',
      CPE_TOKENISE_RATE_PER_SESSION: '0',
      CPE_TOKENISE_RATE_PER_MERCHANT: '40',
      CPE_TRUST_PROXY: '2',
      CPE_LOG_LEVEL: 'warn',
      CPE_LOG_FILE: '/tmp/cpe.log',
      CPE_IDEMPOTENCY_RETENTION: '3600',
      CPE_EVENT_RETENTION_DAYS: '7',
      CPE_WEBHOOK_TIMEOUT_MS: '2500',
      CPE_WEBHOOK_RETRY_SCHEDULE: '1s,2s,4s',
      CPE_WEBHOOK_ALLOW_PRIVATE: '0',
      CPE_COMPACT_MIN_BYTES: '4096',
      CPE_DATABASE_URL: 'postgres://cpe@db.example/cpe',
      CPE_PROCESSES: '3',
      CPE_DATABASE_POOL: '7',
      CPE_HEADERS_TIMEOUT_MS: '2000',
      CPE_REQUEST_TIMEOUT_MS: '4000',
      CPE_MAX_CONNECTIONS: '64',
    };
    const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf('\n## Environment\n'), page.indexOf('\n## Logs\n'));
    const listed = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), Object.keys(env).sort(), "docs/operations.md's table and this test's variables");
    const config = configFromEnv(env);
    assert.deepEqual(config, {
      port: 5000,
      demoPort: 5001,
      dataDir: '/tmp/cpe-config-test',
      publicUrl: 'https://pay.example',
      rateLimit: { perSecond: 7, burst: 9 },
      tokeniseRateLimit: { perIp: { perSecond: 3, burst: 200 }, perSession: { perSecond: 0, burst: 20 }, perMerchant: { perSecond: 40, burst: 250 } },
      trustProxy: 2,
      log: { level: 'warn', file: '/tmp/cpe.log' },
      idempotencyRetentionSeconds: 3600,
      eventRetentionDays: 7,
      webhookTimeoutMs: 2500,
      webhookRetrySchedule: [1000, 2000, 4000],
      webhookAllowPrivate: false,
      compactMinBytes: 4096,
      databaseUrl: 'postgres://cpe@db.example/cpe',
      processes: 3,
      databasePool: 7,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      maxConnections: 64,
      testClock: undefined, // CPE_TEST_CLOCK is for tests only (README, Tests)
    });
  });

  test('defaults: ports 4242 and 4243, ./data, rate 100 with burst 200, tokenise 5, 1 and 25 per second, no trusted proxy, 24 h retention', () => {
    const config = configFromEnv({});
    assert.equal(config.port, 4242);
    assert.equal(config.demoPort, 4243);
    assert.equal(config.dataDir, `${process.cwd()}/data`);
    assert.equal(config.publicUrl, 'http://localhost:4242');
    assert.deepEqual(config.rateLimit, { perSecond: 100, burst: 200 });
    assert.deepEqual(config.tokeniseRateLimit, { perIp: { perSecond: 5, burst: 200 }, perSession: { perSecond: 1, burst: 20 }, perMerchant: { perSecond: 25, burst: 250 } });
    assert.equal(config.trustProxy, 0);
    assert.deepEqual(config.log, { level: 'info', file: undefined });
    assert.equal(config.idempotencyRetentionSeconds, 86_400);
    assert.equal(config.eventRetentionDays, 30);
    assert.equal(config.webhookTimeoutMs, 10_000);
    assert.deepEqual(config.webhookRetrySchedule, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    assert.equal(config.webhookAllowPrivate, true);
    assert.equal(config.compactMinBytes, 1 << 20);
    assert.equal(configFromEnv({ PORT: '0' }).publicUrl, 'http://localhost:0');
  });

  test('CPE_TRUST_PROXY is a count of proxies: anything else stops the start with a message naming it', () => {
    for (const value of ['true', '-1', '1.5', 'yes']) assert.throws(() => configFromEnv({ CPE_TRUST_PROXY: value }), /CPE_TRUST_PROXY is the number of proxies/);
  });

  test('CPE_EVENT_RETENTION_DAYS is a number of days: anything else stops the start with a message naming it', () => {
    for (const value of ['0', '-3', 'month', '9999']) assert.throws(() => configFromEnv({ CPE_EVENT_RETENTION_DAYS: value }), /CPE_EVENT_RETENTION_DAYS is a number of days/);
    assert.equal(configFromEnv({ CPE_EVENT_RETENTION_DAYS: '0.5' }).eventRetentionDays, 0.5);
  });

  test('the webhook variables refuse what they cannot mean, naming the variable', () => {
    assert.throws(() => configFromEnv({ CPE_WEBHOOK_RETRY_SCHEDULE: '5 seconds' }), /CPE_WEBHOOK_RETRY_SCHEDULE is a list of delays/);
    assert.throws(() => configFromEnv({ CPE_WEBHOOK_TIMEOUT_MS: '10s' }), /CPE_WEBHOOK_TIMEOUT_MS is milliseconds/);
    assert.throws(() => configFromEnv({ CPE_WEBHOOK_ALLOW_PRIVATE: 'no' }), /CPE_WEBHOOK_ALLOW_PRIVATE is 1 or 0/);
  });
});
