import { randomUUID } from 'node:crypto';
import type { PgStore } from '../store/pg-store.ts';
import type { DeliveryClaims } from './claims.ts';
import type { Claim, DeliveryRow } from './deliveries.ts';

/**
 * Claims on PostgreSQL, shared by every process of the database: a claim is a lease written on the
 * delivery's row (`lease_until`, `lease_token`), taken in one statement that skips rows another
 * process is claiming at that instant (`FOR UPDATE SKIP LOCKED`), so no two processes take one row.
 * No connection is held while the receiver answers: a slow endpoint costs sockets, not the pool. A
 * lease outlasts the attempt's timeout, so it expires only when its process died (kill -9) or
 * stalled; then any process takes the delivery again, and the late outcome of the old claim is
 * refused (its token no longer matches).
 */
export class PgClaims implements DeliveryClaims {
  constructor(
    private readonly store: PgStore,
    /** How long a claim holds: the attempt's timeout and a margin for recording it. */
    private readonly leaseMs: number,
  ) {}

  async claim(now: number, limit: number, busy: ReadonlyMap<string, number>, perEndpoint: number): Promise<Claim[]> {
    const token = randomUUID();
    // For each enabled endpoint, its due deliveries up to its free places in this process.
    const { rows } = await this.store.query(
      `WITH claim AS (
         SELECT due.id FROM webhook_endpoints e
         CROSS JOIN LATERAL (
           SELECT d.id FROM webhook_deliveries d
           WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
           ORDER BY d.next_at
           LIMIT greatest(0, $2::int - coalesce(($3::jsonb ->> e.id)::int, 0))
           FOR UPDATE OF d SKIP LOCKED
         ) due
         WHERE e.status = 'enabled'
         LIMIT $4
       )
       UPDATE webhook_deliveries d SET lease_until = $1 + $5::bigint, lease_token = $6 FROM claim WHERE d.id = claim.id RETURNING d.*`,
      [now, perEndpoint, JSON.stringify(Object.fromEntries(busy)), limit, this.leaseMs, token],
    );
    return rows.map((row) => ({ row: deliveryOf(row), token }));
  }

  inFlight(row: DeliveryRow, now: number): boolean {
    return row.lease_until !== null && row.lease_until >= now;
  }

  holds(row: DeliveryRow, claim: Claim): boolean {
    return row.lease_token === claim.token;
  }

  release(): void {}
}

function deliveryOf(record: Record<string, any>): DeliveryRow {
  return {
    id: record.id,
    owner: record.owner,
    event_id: record.event_id,
    endpoint_id: record.endpoint_id,
    status: record.status,
    attempts: record.attempts,
    scheduled: record.scheduled,
    next_at: record.next_at,
    resume_at: record.resume_at,
    manual: record.manual,
    lease_until: record.lease_until,
    lease_token: record.lease_token,
    created: record.created,
  };
}
