import type { Claim, Deliveries, DeliveryRow } from './deliveries.ts';
import type { WebhookEndpoints } from './endpoints.ts';

/**
 * Who attempts which delivery: at most one attempt per event and endpoint in flight, wherever it
 * runs. The embedded engine serves one process, so its claims live in that process's memory
 * (MemoryClaims); PostgreSQL's are written on the rows (pg-claims.ts), shared by every process.
 */
export interface DeliveryClaims {
  /**
   * Up to `limit` pending deliveries due by `now` (ms), of enabled endpoints, at most
   * `perEndpoint - busy(endpoint)` of each endpoint, claimed for this process.
   */
  claim(now: number, limit: number, busy: ReadonlyMap<string, number>, perEndpoint: number): Promise<Claim[]>;
  /** Whether an attempt of the delivery is under way now (a manual retry waits for it). */
  inFlight(row: DeliveryRow, now: number): boolean | Promise<boolean>;
  /** Whether the claim still holds, so its outcome may be recorded. */
  holds(row: DeliveryRow, claim: Claim): boolean;
  /** The attempt of `claim` is over; `recorded`: its outcome was. */
  release(claim: Claim, recorded: boolean): void | Promise<void>;
  /** This process claims no more (its claims are free for others). */
  stop?(): Promise<void>;
}

/** Claims of the embedded engine: its one process holds them in memory; a restart starts with none. */
export class MemoryClaims implements DeliveryClaims {
  readonly #held = new Set<string>();

  constructor(
    private readonly deliveries: Deliveries,
    private readonly endpoints: WebhookEndpoints,
  ) {}

  /** The rows in memory, less those whose commit is not on disk yet (Deliveries.uncommitted). */
  async claim(now: number, limit: number, busy: ReadonlyMap<string, number>, perEndpoint: number): Promise<Claim[]> {
    const claimed: Claim[] = [];
    const taken = new Map(busy);
    const enabled = new Map<string, boolean>();
    for (const row of await this.deliveries.pending()) {
      if (claimed.length >= limit) break;
      if (row.next_at > now || this.#held.has(row.id) || this.deliveries.uncommitted.has(row.id) || (taken.get(row.endpoint_id) ?? 0) >= perEndpoint) continue;
      let on = enabled.get(row.endpoint_id);
      if (on === undefined) enabled.set(row.endpoint_id, (on = (await this.endpoints.get(row.endpoint_id))?.status === 'enabled'));
      if (!on) continue;
      this.#held.add(row.id);
      taken.set(row.endpoint_id, (taken.get(row.endpoint_id) ?? 0) + 1);
      claimed.push({ row, token: null });
    }
    return claimed;
  }

  inFlight(row: DeliveryRow): boolean {
    return this.#held.has(row.id);
  }

  holds(): boolean {
    return true;
  }

  release(claim: Claim): void {
    this.#held.delete(claim.row.id);
  }
}
