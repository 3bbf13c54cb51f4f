import { randomInt } from 'node:crypto';
import type pg from 'pg';
import type { EventRow } from '../events/events.ts';
import { databaseUnavailable, unreachableReason } from '../store/pg-availability.ts';
import type { PgStore } from '../store/pg-store.ts';
import type { DeliveryClaims } from './claims.ts';
import type { Claim, DeliveryRow } from './deliveries.ts';
import type { EndpointRow } from './endpoints.ts';

/** The first key of every process's advisory lock (`cp`); the second is the process's own. */
const CLAIMS_LOCK = 0x6370;
/**
 * The owner locks held now, in this database only: pg_locks lists the whole server's, and another
 * CPE database on the same server has owners of its own (advisory locks are per database).
 */
const OWNER_LOCKS = `locktype = 'advisory' AND classid = ${CLAIMS_LOCK} AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * Claims on PostgreSQL, shared by every process of the database. A claim is written on the
 * delivery's row (`lease_owner`, `lease_token`) by one statement that skips the rows another process
 * is claiming at that instant (`FOR UPDATE SKIP LOCKED`), so no two processes take one row, and no
 * connection is held while the receiver answers (a slow endpoint costs sockets, not the pool).
 *
 * Whose claim is still good is told by PostgreSQL itself: each process holds a session advisory lock
 * (CLAIMS_LOCK, its owner number) on a connection of its own for as long as it runs. A claim whose
 * owner's lock is gone (the process died, kill -9 included: its connection closed) is taken again at
 * once; a live owner's claim is never taken, however slow the receiver or the process, so one attempt
 * per event and endpoint is in flight at a time. Only a claim older than `staleMs` (a process alive
 * but stalled that long) is taken regardless; its late outcome is then refused (its token no longer
 * matches).
 */
export class PgClaims implements DeliveryClaims {
  readonly #owner = randomInt(1, 2 ** 31 - 1);
  #lock?: Promise<pg.PoolClient>;

  constructor(
    private readonly store: PgStore,
    private readonly staleMs = 10 * 60_000,
  ) {}

  /** Takes this process's owner lock, on a connection kept for it (once). */
  #locked(): Promise<pg.PoolClient> {
    if (this.#lock) return this.#lock;
    const lock = (async () => {
      const client = await this.store.pool.connect().catch((error: unknown) => {
        // An outage, as the store's statements report it (logged once by the store, not per claim).
        throw unreachableReason(error) ? databaseUnavailable() : error;
      });
      // Given back once: the pool throws on a second release, and a connection that errors while
      // the lock is asked for is met both here and by its statement's rejection below (that throw
      // replaced the outage, and the deliverer logged it as a failure).
      let released = false;
      const drop = () => {
        if (released) return;
        released = true;
        client.release(true);
      };
      // Dropped (an outage, a server restart): the lock went with it, so the next claim takes it
      // again on a new connection instead of claiming without it.
      client.on('error', () => {
        if (this.#lock !== lock) return; // given back already (stop), or replaced
        this.#lock = undefined;
        drop();
      });
      try {
        await client.query('SELECT pg_advisory_lock($1, $2)', [CLAIMS_LOCK, this.#owner]);
      } catch (error) {
        drop();
        throw unreachableReason(error) ? databaseUnavailable() : error;
      }
      return client;
    })();
    // A lock not taken (the database unreachable) is tried again at the next claim.
    lock.catch(() => {
      if (this.#lock === lock) this.#lock = undefined;
    });
    this.#lock = lock;
    return lock;
  }

  async claim(now: number, limit: number, busy: ReadonlyMap<string, number>, perEndpoint: number): Promise<Claim[]> {
    await this.#locked();
    const token = `${this.#owner}:${now}:${randomInt(2 ** 31)}`;
    // For each enabled endpoint, its due deliveries up to its free places in this process, unclaimed
    // or claimed by a process that is gone (its lock is not held).
    const { rows } = await this.store.query(
      `WITH alive AS (
         SELECT objid::bigint AS owner FROM pg_locks WHERE ${OWNER_LOCKS}
       ), claim AS (
         SELECT due.id FROM webhook_endpoints e
         CROSS JOIN LATERAL (
           SELECT d.id FROM webhook_deliveries d
           WHERE d.endpoint_id = e.id AND d.next_at <= $1
             AND (d.lease_owner IS NULL OR d.lease_until < $1 OR d.lease_owner NOT IN (SELECT owner FROM alive))
           ORDER BY d.next_at
           LIMIT greatest(0, $2::int - coalesce(($3::jsonb ->> e.id)::int, 0))
           FOR UPDATE OF d SKIP LOCKED
         ) due
         WHERE e.status = 'enabled'
         LIMIT $4
       )
       UPDATE webhook_deliveries d SET lease_owner = $5, lease_until = $1 + $6::bigint, lease_token = $7 FROM claim WHERE d.id = claim.id
       RETURNING d.*,
         (SELECT row_to_json(x) FROM (SELECT id, object, owner, type, created, data, request FROM events WHERE id = d.event_id) x) AS event,
         (SELECT row_to_json(y) FROM (SELECT id, owner, url, enabled_events, description, status, disabled_reason, secrets, created FROM webhook_endpoints WHERE id = d.endpoint_id) y) AS endpoint`,
      [now, perEndpoint, JSON.stringify(Object.fromEntries(busy)), limit, this.#owner, this.staleMs, token],
    );
    // The event and endpoint come with the claim: an attempt needs no query before its POST.
    return rows.map((row) => ({ row: deliveryOf(row), token, event: (row.event ?? undefined) as EventRow | undefined, endpoint: (row.endpoint ?? undefined) as EndpointRow | undefined }));
  }

  async inFlight(row: DeliveryRow, now: number): Promise<boolean> {
    if (row.lease_owner === null || row.lease_until === null || row.lease_until < now) return false;
    const { rows } = await this.store.query(`SELECT 1 FROM pg_locks WHERE ${OWNER_LOCKS} AND objid = $1`, [row.lease_owner]);
    return rows.length > 0;
  }

  holds(row: DeliveryRow, claim: Claim): boolean {
    return row.lease_token === claim.token;
  }

  /** An attempt that recorded nothing gives its claim back (one that did, the recording cleared). */
  async release(claim: Claim, recorded: boolean): Promise<void> {
    if (recorded) return;
    await this.store.query('UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2', [claim.row.id, claim.token]);
  }

  async stop(): Promise<void> {
    const lock = this.#lock;
    this.#lock = undefined;
    // Closing the connection lets go of the owner lock: what this process still held is free at once.
    if (lock) (await lock.catch(() => undefined))?.release(true);
  }
}

function deliveryOf(record: Record<string, any>): DeliveryRow {
  return {
    id: record.id,
    owner: record.owner,
    event_id: record.event_id,
    endpoint_id: record.endpoint_id,
    attempts: record.attempts,
    scheduled: record.scheduled,
    next_at: record.next_at,
    resume_at: record.resume_at,
    manual: record.manual,
    lease_owner: record.lease_owner,
    lease_until: record.lease_until,
    lease_token: record.lease_token,
    created: record.created,
  };
}
