import type { Clock } from '../clock.ts';
import { newId } from '../identity/secrets.ts';
import type { Logger } from '../logger.ts';
import type { Collection, Page, PageQuery, Store } from '../store/store.ts';
import { isOutage } from '../store/pg-availability.ts';

/** How many requests the dashboard keeps per merchant (the "last 1,000"). */
export const KEPT_PER_MERCHANT = 1_000;
/** Trimmed once this many more have come in, so trimming costs one delete run per hundred requests. */
const TRIM_SLACK = 100;
/** Written in batches at most this often (ms): a request never waits for its record. */
const FLUSH_MS = 50;

/** Who made the request: the merchant's server (licence key), its pages (public key and session), or the dashboard. */
export type RequestSource = 'api' | 'browser' | 'dashboard';

/** One request as the dashboard's request log shows it; bodies already redacted (redact.ts). */
export interface RequestRecord {
  id: string;
  merchant_id: number;
  /** The Request-Id header of the answer. */
  request_id: string;
  source: RequestSource;
  method: string;
  path: string;
  query?: string;
  status: number;
  idempotency_key?: string;
  request_body?: unknown;
  response_body?: unknown;
  ms: number;
  created_at: number;
}

/** The status filter of the log: a class of codes. */
export type StatusClass = '2xx' | '4xx' | '5xx';
const classOf = (status: number) => `${Math.floor(status / 100)}xx`;

/** A cursor older than every record: `ending_before` it pages from the oldest (the trim's reading). */
const OLDEST = `rq_${'0'.repeat(25)}`;

/**
 * The last KEPT_PER_MERCHANT API requests of each merchant, in the store (so every process of one
 * database sees one log, and it outlives a restart). Records are queued and written in batches, each
 * its own transaction outside the request's; a read first waits for this process's queue.
 */
export class RequestRecords {
  readonly #records: Collection<RequestRecord>;
  #queue: RequestRecord[] = [];
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Records written per merchant since its last trim (counted only: the trim counts the store). */
  readonly #sinceTrim = new Map<number, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.#records = store.collection<RequestRecord>('request_records', {
      merchant: (r) => String(r.merchant_id),
      status: (r) => `${r.merchant_id}:${classOf(r.status)}`,
    });
  }

  /** Queues a record (its id and time are given here). */
  add(record: Omit<RequestRecord, 'id' | 'created_at'>): void {
    this.#queue.push({ id: newId('rq'), ...record, created_at: this.clock.now() });
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what is queued; resolves once it is in the store. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // One batch at a time, each after the last.
    this.#flushing = (this.#flushing ?? Promise.resolve()).then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    const batch = this.#queue;
    if (!batch.length) return;
    this.#queue = [];
    try {
      await this.store.transaction(async () => {
        for (const record of batch) await this.#records.insert(record);
      });
      for (const record of batch) this.#sinceTrim.set(record.merchant_id, (this.#sinceTrim.get(record.merchant_id) ?? 0) + 1);
      for (const [merchantId, count] of this.#sinceTrim) {
        if (count < TRIM_SLACK) continue;
        this.#sinceTrim.delete(merchantId);
        await this.#trim(merchantId);
      }
    } catch (error) {
      // The log is a convenience: a failed write loses these records, never a request. A database
      // outage is logged once, where it is detected (pg-availability.ts), not again here.
      if (!isOutage(error)) this.logger.log('error', 'request log write failed', { error: (error as Error).name, message: (error as Error).message });
    }
  }

  /** Deletes the merchant's oldest records beyond KEPT_PER_MERCHANT. */
  async #trim(merchantId: number): Promise<void> {
    const key = String(merchantId);
    const over = (await this.#records.count('merchant', key)) - KEPT_PER_MERCHANT;
    if (over <= 0) return;
    await this.store.transaction(async () => {
      const { data } = await this.#records.page('merchant', key, { limit: over, endingBefore: OLDEST });
      for (const record of data) await this.#records.delete(record.id);
    });
  }

  /** A page of the merchant's log, newest first; `status` keeps one class of codes. */
  async page(merchantId: number, query: PageQuery, status?: StatusClass): Promise<Page<RequestRecord>> {
    await this.flush();
    return status ? this.#records.page('status', `${merchantId}:${status}`, query) : this.#records.page('merchant', String(merchantId), query);
  }

  /** One record of the merchant's; another merchant's is absent. */
  async get(merchantId: number, id: string): Promise<RequestRecord | undefined> {
    await this.flush();
    const record = await this.#records.get(id);
    return record?.merchant_id === merchantId ? record : undefined;
  }

  /** Stops the timer and writes what is queued (the service is closing). */
  close(): Promise<void> {
    return this.flush();
  }
}
