import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { apiClient, testEngine } from '../helpers/service.ts';

/**
 * The refund settlement job is durable: a pending refund (card 4000 0000 0000 5126) whose process is
 * killed (kill -9) before its outcome is due is settled by the next process on the same data, on
 * the engine under test. Nothing of it lives in a timer of the process that made it.
 */
let service: ServiceProcess | undefined;
after(() => service?.stop('SIGKILL'));

test('kill -9 with a refund pending: the restarted service settles it (failed), and gives the amount back', { timeout: 90_000 }, async () => {
  const dataDir = tempDataDir();
  const env: Record<string, string> = testEngine() === 'postgres' ? { CPE_DATABASE_URL: await freshTestDatabase() } : {};
  service = await startServiceProcess(dataDir, env);
  const { licenceKey: key, merchantId } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  let api = apiClient(service.url);
  const post = (path: string, json: object) => api('POST', path, { token: key, json });
  const id = (await post('/v1/payment_intents', { merchantid: merchantId, amount: 4200, currency: 'GBP', identifier: 'settle' })).body.paymentIntentId;
  const token = (await post('/v1/tokens', { card: { number: '4000000000005126', exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'A' } })).body.data.cp_card_token;
  for (const [op, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const) assert.equal((await post(`/v1/payment_intents/${op}`, { payment_intent_id: id, ...body })).status, 200);
  const pending = await post('/v1/refunds', { payment_intent: id, amount: 4200 });
  assert.equal(pending.body.status, 'pending');
  await service.stop('SIGKILL');

  service = await startServiceProcess(dataDir, env);
  api = apiClient(service.url);
  // The job's pass is announced nowhere: the refund is read until it is no longer pending.
  const refund = await waitFor(
    'the pending refund to settle after the restart',
    async () => {
      const read = (await api('GET', `/v1/refunds/${pending.body.id}`, { token: key })).body;
      return read.status !== 'pending' && read;
    },
    { timeoutMs: 60_000, everyMs: 200 },
  );
  assert.deepEqual([refund.status, refund.failure_reason], ['failed', 'expired_or_canceled_card']);
  const intent = (await api('GET', `/v1/payment_intents/${id}`, { token: key })).body;
  assert.deepEqual([intent.status, intent.amount_refunded, intent.amount_received], ['succeeded', 0, 4200]);
});
