import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Config } from '../../server/config.ts';
import { addressGroup, clientAddress } from '../../server/http/client-address.ts';
import { startServiceProcess } from '../helpers/service-process.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { off, only } from '../helpers/rate-limits.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, createIntent, fromFrame, futureYear, type Session } from '../server/payments-fixtures.ts';
import { rawRequest } from './helpers/raw-request.ts';

/**
 * Card testing: a script trying stolen card numbers through the tokenise route. Beside the intent's
 * lock and the per-session and per-address limits it must not get further by spreading over many
 * sessions, over the 2⁶⁴ addresses of one IPv6 network, or by writing X-Forwarded-For; behind a
 * load balancer (CPE_TRUST_PROXY) the address it saw is the one that counts.
 */

const card = { number: CARDS.visa, exp_month: '12', exp_year: futureYear, cvc: '123', name: 'Ada Lovelace' };

/** Tokenises from the hosted frame, over a connection from `localAddress`, with an X-Forwarded-For of the attacker's choosing. */
async function tokeniseAs(svc: TestService, session: Session, { from = '127.0.0.1', forwardedFor }: { from?: string; forwardedFor?: string } = {}) {
  const headers = { ...fromFrame(svc), ...session.headers, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) };
  return (await rawRequest(`${svc.url}/frames/tokenise`, { method: 'POST', headers, json: { card }, localAddress: from })).status;
}

async function withService(config: Partial<Config>, run: (svc: TestService) => Promise<void>) {
  const svc = await startTestService(config);
  try {
    await run(svc);
  } finally {
    await svc.close();
  }
}

describe('the client address (server/http/client-address.ts)', () => {
  test('IPv4 as is, IPv4-mapped IPv6 as IPv4; X-Forwarded-For read only `hops` entries from the right', () => {
    assert.equal(clientAddress('::ffff:192.0.2.7', undefined, 0), '192.0.2.7');
    assert.equal(clientAddress('10.0.0.5', '203.0.113.9', 0), '10.0.0.5', 'hops 0: the header is ignored');
    assert.equal(clientAddress('10.0.0.5', '6.6.6.6, 203.0.113.9', 1), '203.0.113.9', 'what the load balancer saw, not what the client wrote');
    assert.equal(clientAddress('10.0.0.5', '6.6.6.6, 203.0.113.9, 10.0.0.4', 2), '203.0.113.9');
    assert.equal(clientAddress('10.0.0.5', '203.0.113.9', 3), '203.0.113.9', 'fewer entries than hops: the farthest one');
    assert.equal(clientAddress('10.0.0.5', undefined, 1), '10.0.0.5', 'no header: the socket');
    assert.equal(clientAddress('10.0.0.5', '[2001:DB8::1]:443', 1), '2001:db8::1');
    assert.equal(clientAddress('10.0.0.5', '198.51.100.4:5123', 1), '198.51.100.4');
    assert.equal(clientAddress('10.0.0.5', '::ffff:198.51.100.4', 1), '198.51.100.4');
    assert.equal(clientAddress('10.0.0.5', 'unknown', 1), '10.0.0.5', 'an entry that is no address: the proxy that sent it');
  });

  test('limits count an IPv6 address by its /64, an IPv4 address by itself', () => {
    assert.equal(addressGroup('203.0.113.9'), '203.0.113.9');
    assert.equal(addressGroup('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(addressGroup('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(addressGroup('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressGroup('::1'), '0:0:0:0::/64');
    assert.equal(addressGroup('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  });
});

describe('tokenise card-testing limits', () => {
  test('per merchant: many sessions from many addresses share the merchant\'s budget; POST /v1/tokens counts too; another merchant is not affected', () =>
    withService({ tokeniseRateLimit: { perIp: off, perSession: off, perMerchant: only(3) } }, async (svc) => {
      const statuses = [];
      for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) statuses.push(await tokeniseAs(svc, await createIntent(svc), { from }));
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const server = await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, json: { card } });
      assert.equal(server.status, 429);
      assert.equal(server.body.error.type, 'rate_limit_error');

      const other = await svc.services.merchants.create({ origins: ['https://other.example'] });
      const created = await svc.api('POST', '/v1/payment_intents', { token: other.licenceKey, json: { merchantid: other.merchantId, amount: 100, currency: 'GBP', identifier: 'other-1' } });
      const otherSession = { ...created.body, headers: { 'X-CPE-Public-Key': other.publicKey, 'X-CPE-Session-Token': created.body.session_token } };
      assert.equal(await tokeniseAs(svc, otherSession, { from: '127.0.0.2' }), 200);
      assert.equal((await svc.api('POST', '/v1/tokens', { token: other.licenceKey, json: { card } })).status, 200);
    }));

  test('per address, without a proxy (CPE_TRUST_PROXY 0): a new X-Forwarded-For on every request does not escape the limit', () =>
    withService({ tokeniseRateLimit: { perIp: only(2), perSession: off } }, async (svc) => {
      const statuses = [];
      for (const spoof of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) statuses.push(await tokeniseAs(svc, await createIntent(svc), { from: '127.0.0.6', forwardedFor: spoof }));
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(await tokeniseAs(svc, await createIntent(svc), { from: '127.0.0.7' }), 200, 'another address has its own budget');
    }));

  test('behind one load balancer (CPE_TRUST_PROXY 1): the address it appended counts, whatever the client wrote before it', () =>
    withService({ trustProxy: 1, tokeniseRateLimit: { perIp: only(2), perSession: off } }, async (svc) => {
      const statuses = [];
      for (const spoof of ['6.6.6.1', '6.6.6.2', '6.6.6.3']) statuses.push(await tokeniseAs(svc, await createIntent(svc), { forwardedFor: `${spoof}, 203.0.113.9` }));
      assert.deepEqual(statuses, [200, 200, 429]);
      // Every shopper behind the load balancer comes from its address, yet each has its own budget.
      assert.equal(await tokeniseAs(svc, await createIntent(svc), { forwardedFor: '203.0.113.10' }), 200);
    }));

  test('IPv6: the addresses of one /64 share one budget; another /64 has its own', () =>
    withService({ trustProxy: 1, tokeniseRateLimit: { perIp: only(2), perSession: off } }, async (svc) => {
      const statuses = [];
      for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:aaaa::9', '2001:db8:1:2:ffff:ffff:ffff:fffe'])
        statuses.push(await tokeniseAs(svc, await createIntent(svc), { forwardedFor: address }));
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(await tokeniseAs(svc, await createIntent(svc), { forwardedFor: '2001:db8:1:3::1' }), 200);
    }));

  test('the general limiter counts unauthenticated guesses by the same address groups', () =>
    withService({ trustProxy: 1, rateLimit: only(2) }, async (svc) => {
      const guess = (address: string) =>
        rawRequest(`${svc.url}/v1/payment_intents/pi_x`, { headers: { authorization: 'Bearer sk_test_guess', 'X-Forwarded-For': address } }).then((r) => r.status);
      assert.deepEqual([await guess('2001:db8:9:9::1'), await guess('2001:db8:9:9::2'), await guess('2001:db8:9:9::3')], [401, 401, 429]);
      assert.equal(await guess('2001:db8:9:a::1'), 401);
    }));
});

describe('the service process: one client address for the limiters and the request log', () => {
  test('the log names the client as the limiters count it: IPv4 (never ::ffff:), X-Forwarded-For only with CPE_TRUST_PROXY', async () => {
    for (const [hops, expected] of [['0', '127.0.0.1'], ['1', '2001:db8::7']] as const) {
      const dir = tempDataDir();
      const log = join(dir, 'requests.log');
      const service = await startServiceProcess(dir, { CPE_LOG_LEVEL: 'info', CPE_LOG_FILE: log, CPE_TRUST_PROXY: hops });
      try {
        // The service listens on every interface, so an IPv4 client's socket address is ::ffff:127.0.0.1.
        // A path of its own: the start-up wait polls /healthz without the header.
        await rawRequest(`${service.url}/probe`, { headers: { 'X-Forwarded-For': '2001:db8::7' } });
      } finally {
        await service.stop();
      }
      const line = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.path === '/probe' && l.msg === 'request');
      assert.equal(line?.ip, expected, `CPE_TRUST_PROXY=${hops}: ${JSON.stringify(line)}`);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
