import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../server/http/api-error.ts';
import type { AppState } from '../../server/http/app-state.ts';
import { rateLimit } from '../../server/http/rate-limit.ts';
import { only } from '../helpers/rate-limits.ts';
import { startTestService } from '../helpers/service.ts';
import { createIntent, tokenise } from './payments-fixtures.ts';

describe('the limiter runs before a credential is refused', () => {
  test('a flood of bad credentials from one address gets 429, on every kind of route; a good credential still passes', async () => {
    // No refill within the test: the fourth guess is refused however slow the machine.
    const svc = await startTestService({ rateLimit: only(3) });
    try {
      const session = await createIntent(svc);
      const probes: [string, string, Record<string, string>][] = [
        ['GET', '/v1/contacts', { authorization: 'Bearer cpe_at_guess' }],
        ['GET', '/v1/payment_intents/pi_x', { authorization: 'Bearer sk_test_guess' }],
        ['GET', '/intent', { 'X-CPE-Public-Key': svc.credentials.publicKey, 'X-CPE-Session-Token': 'cpe_st_guess' }],
      ];
      // One bucket per address: three guesses (any route) use the burst, the fourth is refused.
      const statuses = [];
      for (const [method, path, headers] of [...probes, ...probes]) statuses.push((await svc.api(method, path, { headers })).status);
      assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
      const refused = await svc.api('GET', '/v1/contacts', { headers: { authorization: 'Bearer cpe_at_guess' } });
      assert.equal(refused.body.error.type, 'rate_limit_error');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      // Valid credentials count against themselves, not against the address.
      assert.equal((await svc.api('GET', '/v1/contacts', { token: svc.credentials.accessToken })).status, 200);
      assert.equal((await svc.api('GET', `/v1/payment_intents/${session.paymentIntentId}`, { token: svc.credentials.licenceKey })).status, 200);
      assert.equal((await svc.api('GET', '/intent', { headers: session.headers })).status, 200);
    } finally {
      await svc.close();
    }
  });
});

describe('the limiter table', () => {
  const ctxOf = (key: string) => ({ state: { requestId: 'r', rateKey: key }, ip: '127.0.0.1' }) as unknown as ParameterizedContext<AppState>;

  test('evicts the least recently used key, not the oldest created', async () => {
    let clock = 0;
    const limiter = rateLimit({ perSecond: 1, burst: 1 }, (state) => state.rateKey!, { maxKeys: 2, now: () => clock });
    const status = async (key: string) => {
      try {
        await limiter(ctxOf(key), async () => {});
        return 200;
      } catch (error) {
        return (error as ApiError).status;
      }
    };
    assert.equal(await status('a'), 200); // a: spent
    assert.equal(await status('b'), 200); // b: spent
    assert.equal(await status('a'), 429); // a used again: now the most recent
    assert.equal(await status('c'), 200); // a third key evicts b, the least recently used
    assert.equal(await status('a'), 429, 'a was evicted although it was used after b');
    assert.equal(await status('b'), 200, 'b was kept although it was the least recently used');
    clock += 1;
    assert.equal(await status('a'), 200, 'a refills with time');
  });

  test('answers 429 with Retry-After in whole seconds', async () => {
    const limiter = rateLimit({ perSecond: 0.25, burst: 1 }, (state) => state.rateKey!, { now: () => 0 });
    await limiter(ctxOf('k'), async () => {});
    await assert.rejects(limiter(ctxOf('k'), async () => {}), (error: ApiError) => error.status === 429 && error.headers['Retry-After'] === '4');
  });
});

describe('the tokenise card-testing limits', () => {
  test('per session: over its burst a session gets 429, another session does not', async () => {
    const svc = await startTestService({ tokeniseRateLimit: { perIp: { perSecond: 0, burst: 0 }, perSession: { perSecond: 0.001, burst: 2 } } });
    try {
      const s = await createIntent(svc);
      assert.equal((await tokenise(svc, s)).status, 200);
      assert.equal((await tokenise(svc, s)).status, 200);
      const refused = await tokenise(svc, s);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.type, 'rate_limit_error');
      assert.equal((await tokenise(svc, await createIntent(svc))).status, 200);
    } finally {
      await svc.close();
    }
  });

  test('per address: over its burst the address gets 429 whatever the session', async () => {
    const svc = await startTestService({ tokeniseRateLimit: { perIp: { perSecond: 0.001, burst: 2 }, perSession: { perSecond: 0, burst: 0 } } });
    try {
      assert.equal((await tokenise(svc, await createIntent(svc))).status, 200);
      assert.equal((await tokenise(svc, await createIntent(svc))).status, 200);
      assert.equal((await tokenise(svc, await createIntent(svc))).status, 429);
    } finally {
      await svc.close();
    }
  });
});
