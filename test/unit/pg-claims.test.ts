import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import type { PgStore } from '../../server/store/pg-store.ts';
import { isOutage } from '../../server/store/pg-availability.ts';
import { PgClaims } from '../../server/webhooks/pg-claims.ts';

/**
 * A connection that breaks while the owner lock is asked for, as node-postgres reports it: the
 * client's 'error' event, then the statement's rejection. Its release throws the second time, as
 * pg-pool's does ("Release called on client which has already been released to the pool").
 */
function breakingClient() {
  const client = Object.assign(new EventEmitter(), {
    releases: 0,
    release() {
      if (++client.releases > 1) throw new Error('Release called on client which has already been released to the pool.');
    },
    query: () =>
      new Promise((_, reject) => {
        client.emit('error', new Error('Connection terminated unexpectedly'));
        reject(new Error('Connection terminated unexpectedly'));
      }),
  });
  return client;
}

describe('webhook claims on PostgreSQL when the lock connection breaks', () => {
  test('the claim fails as an outage (not a double release), and the connection is given back once', async () => {
    const client = breakingClient();
    const store = { pool: { connect: async () => client }, query: async () => ({ rows: [] }) } as unknown as PgStore;
    const claims = new PgClaims(store);
    const error = await claims.claim(Date.now(), 10, new Map(), 5).then(
      () => assert.fail('claimed without its lock'),
      (caught: unknown) => caught,
    );
    assert.ok(isOutage(error), `an outage, not ${(error as Error).message}`);
    assert.equal(client.releases, 1);
  });
});
