import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { scaled } from '../../testkit/time.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { apiClient, testEngine } from '../helpers/service.ts';
import { PENDING_REFUND_SECONDS } from '../../server/payments/test-cards.ts';
import { configFromEnv } from '../../server/config.ts';

/**
 * The refund settlement job is durable: a pending refund (card 4000 0000 0000 5126) whose process is
 * killed (kill -9) before its outcome is due is settled by the next process on the same data, on
 * the engine under test. Nothing of it lives in a timer of the process that made it. Both processes
 * run on a held clock (CPE_TEST_CLOCK, server/test-clock.ts), moved by the test.
 */
let service: ServiceProcess | undefined;
after(() => service?.stop('SIGKILL'));

test('kill -9 with a refund pending: the restarted service settles it (failed), and gives the amount back', { timeout: scaled(300_000) }, async () => {
  const dataDir = tempDataDir();
  const env: Record<string, string> = testEngine() === 'postgres' ? { CPE_DATABASE_URL: await freshTestDatabase() } : {};
  const clock = Math.floor(Date.now() / 1000);
  service = await startServiceProcess(dataDir, env, { clock });
  const { licenceKey: key, merchantId } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  let api = apiClient(service.url);
  const post = (path: string, json: object) => api('POST', path, { token: key, json });
  const id = (await post('/v1/payment_intents', { merchantid: merchantId, amount: 4200, currency: 'GBP', identifier: 'settle' })).body.paymentIntentId;
  const token = (await post('/v1/tokens', { card: { number: '4000000000005126', exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'A' } })).body.data.cp_card_token;
  for (const [op, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const) assert.equal((await post(`/v1/payment_intents/${op}`, { payment_intent_id: id, ...body })).status, 200);
  const pending = await post('/v1/refunds', { payment_intent: id, amount: 4200 });
  assert.equal(pending.body.status, 'pending');
  await service.stop('SIGKILL');

  service = await startServiceProcess(dataDir, env, { clock });
  api = apiClient(service.url);
  const read = async () => (await api('GET', `/v1/refunds/${pending.body.id}`, { token: key })).body;
  // Answered once the settlement job has passed at the new time.
  await service.moveClock(PENDING_REFUND_SECONDS - 1);
  assert.equal((await read()).status, 'pending', 'not due yet');
  await service.moveClock(1);
  const refund = await read();
  assert.deepEqual([refund.status, refund.failure_reason], ['failed', 'expired_or_canceled_card']);
  const intent = (await api('GET', `/v1/payment_intents/${id}`, { token: key })).body;
  assert.deepEqual([intent.status, intent.amount_refunded, intent.amount_received], ['succeeded', 0, 4200]);
});

test('CPE_TEST_CLOCK: Unix seconds, or refused at start naming the variable', () => {
  assert.equal(configFromEnv({ CPE_TEST_CLOCK: '1700000000' }).testClock, 1_700_000_000);
  assert.equal(configFromEnv({}).testClock, undefined);
  for (const value of ['soon', '-1', '1.5', '1e30']) assert.throws(() => configFromEnv({ CPE_TEST_CLOCK: value }), /CPE_TEST_CLOCK is a time in Unix seconds/, value);
});
