/**
 * The storage interface every service uses, with two engines behind it: the embedded one
 * (embedded-store.ts: memory, an append log, group commit) and PostgreSQL (pg-store.ts). Every call is
 * async. Calls made inside `store.transaction()` (found through AsyncLocalStorage, so services need
 * not pass a handle) are one transaction: they read their own writes, and other requests see the
 * writes only once they are durable. Calls made outside one are each a transaction of their own.
 */
export interface Row {
  id: string;
}

export interface PageQuery {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
  /**
   * Only rows whose numeric `field` (a top-level field; a column in PostgreSQL) lies within these
   * bounds, both inclusive (`created[gte]`, `created[lte]` of a list): pages and has_more count only them.
   */
  range?: {
    field: string;
    gte?: number;
    lte?: number;
    /**
     * The field never goes down as a list's sequence goes up (a creation time, from the clock the
     * row's id comes from): the embedded engine then finds the range's stretch of the list by binary
     * search instead of walking to it (PostgreSQL reads the same from TableDef.grows).
     */
    grows?: boolean;
  };
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * Names an ordered index and how a row maps to its key in it (undefined: not in that index), or to
 * several keys (the row is in the list of each: an intent's metadata pairs).
 */
export type IndexSpec<T> = Record<string, (row: T) => string | readonly string[] | undefined>;

/** Whether the keys a row has in an index (IndexSpec) include `key`. */
export const hasKey = (keys: string | readonly string[] | undefined, key: string): boolean => (typeof keys === 'string' ? keys === key : keys !== undefined && keys.includes(key));

/** Rows come back frozen (nested values too): change them only through update(). */
export interface Collection<T extends Row> {
  /**
   * `forUpdate`: inside a write transaction, the row stays this transaction's until it ends (a row
   * lock in PostgreSQL; the embedded engine runs one write transaction at a time anyway), so a
   * check-then-change of one row (an intent's transition) runs once however many processes race.
   */
  get(id: string, options?: { forUpdate?: boolean }): Promise<T | undefined>;
  /** Rows of one key of an index, oldest first. */
  find(index: string, key: string): Promise<readonly T[]>;
  first(index: string, key: string): Promise<T | undefined>;
  count(index: string, key: string): Promise<number>;
  insert(row: T): Promise<T>;
  /**
   * Inserts the row unless one with its id exists; then returns that one (in PostgreSQL after the
   * transaction that wrote it ends: two requests claiming one key are served one after the other).
   */
  insertOrGet(row: T): Promise<{ inserted: boolean; row: T }>;
  update(id: string, patch: Partial<T>): Promise<T>;
  delete(id: string): Promise<boolean>;
  /**
   * Newest first, cursors by id as in the Stripe API. The order is the position an id carries
   * (identity/ids.ts), so a cursor with one needs no row: live, deleted or never made, it pages from
   * its place. An id without one (made before ids carried it) must be a row, live or deleted, of the
   * same list: of the same index key, or of `cursorList` (an index and key) when given. Throws
   * CursorNotFound otherwise. Rows whose id carries no position come first, in insertion order.
   * (An engine shared by several processes, whose ids may share a position, orders by position and
   * then id, and compares a cursor as that pair.) With `filter`, only the list's rows that meet it.
   */
  page(index: string, key: string, query: PageQuery, cursorList?: CursorList, filter?: RowFilter): Promise<Page<T>>;
  /** Every row, oldest first (for maintenance, tests and copying a store). */
  all(): Promise<T[]>;
  /** Deletes every row whose `expiry` index hour (see expiry.ts) has wholly passed by `now`; how many. */
  deleteExpired(now: number): Promise<number>;
}

/**
 * Conditions every row of a filtered page meets beside its list's key and its range (PageQuery.range)
 * (all of them: AND), stated as
 * data so that each engine evaluates them where its data lives: the embedded one on the rows of the
 * list in memory, PostgreSQL in the query's WHERE on its own indexes (pg-schema.ts). The page still
 * holds `limit` matching rows, and its cursors are the list's.
 */
export interface RowFilter {
  /** The field's value is one of these. */
  oneOf?: Record<string, readonly string[]>;
  /** The field is an object holding each of these key/value pairs (metadata). */
  holds?: Record<string, Readonly<Record<string, string>>>;
  /**
   * Lists (an index and a key), each holding every row of the page's list that meets the filter (the
   * list of one metadata pair): an engine that walks a list row by row (the embedded one) walks the
   * shortest of these and the page's own, testing each row for the page's list and every condition.
   * PostgreSQL plans from the conditions and its own indexes instead.
   */
  within?: readonly CursorList[];
  /**
   * Lists of one index (an intent's status list, one per status asked for), whose union holds every
   * row of the page's list that meets the filter: PostgreSQL walks each list's index newest first and
   * merges them (a filter of several statuses reads a page's worth of each, not the merchant's list);
   * the embedded engine walks the page's list and tests `oneOf`.
   */
  among?: readonly CursorList[];
}

/** A page's range and RowFilter as a predicate over a row (the embedded engine's way). */
export function rowMatches(range: PageQuery['range'], filter: RowFilter = {}): (row: object) => boolean {
  const checks: ((row: Record<string, unknown>) => boolean)[] = [];
  if (range) {
    const { field, gte = -Infinity, lte = Infinity } = range;
    checks.push((row) => (row[field] as number) >= gte && (row[field] as number) <= lte);
  }
  for (const [field, values] of Object.entries(filter.oneOf ?? {})) checks.push((row) => values.includes(row[field] as string));
  for (const [field, pairs] of Object.entries(filter.holds ?? {})) {
    const entries = Object.entries(pairs);
    checks.push((row) => {
      const held = row[field] as Record<string, string> | undefined;
      return held !== undefined && held !== null && entries.every(([key, value]) => Object.hasOwn(held, key) && held[key] === value);
    });
  }
  return (row) => checks.every((check) => check(row as Record<string, unknown>));
}

/** The list a cursor without a position must belong to: an index and one of its keys. */
export interface CursorList {
  index: string;
  key: string;
}

export class CursorNotFound extends Error {
  constructor(readonly param: 'starting_after' | 'ending_before', readonly cursor: string) {
    super(`No such object: '${cursor}'`);
  }
}

/** A token bucket per key, shared by every process of the engine (PostgreSQL) or kept per process. */
export interface RateBuckets {
  /** Takes one token from `key`'s bucket; false (and the seconds until one is back) when it is empty. */
  take(key: string, perSecond: number, burst: number): Promise<{ allowed: true } | { allowed: false; retryAfter: number }>;
}

/** The API request a write transaction runs for: its Request-Id and idempotency key (events record it). */
export interface RequestRef {
  id: string;
  idempotency_key: string | null;
}

export interface TransactionOptions {
  /** The request this write transaction runs for (durableWrites sets it): read back by currentRequest(). */
  request?: RequestRef | null;
  /** Reads only: no write lock, nothing to commit (still answers only once what it read is durable). */
  readOnly?: boolean;
  /**
   * Whether an error thrown by the body still commits what it wrote (a refused card counts towards
   * its intent's lock): PostgreSQL rolls back otherwise. The embedded engine keeps every change.
   */
  commitOn?: (error: unknown) => boolean;
}

export interface Store {
  readonly engine: 'embedded' | 'postgres';
  collection<T extends Row>(name: string, indexes?: IndexSpec<T>): Collection<T>;
  /**
   * Runs `body` as one transaction and resolves once its writes are durable (and, for a read, once
   * everything it may have seen is). Nested calls join the outer transaction.
   */
  transaction<R>(body: () => Promise<R>, options?: TransactionOptions): Promise<R>;
  /**
   * A lock on a name until the current transaction ends (PostgreSQL: an advisory lock, so it holds
   * across processes; the embedded engine's write transactions are exclusive already).
   */
  lock(name: string): Promise<void>;
  /** The request of the write transaction under way (TransactionOptions.request); null outside one or without one. */
  currentRequest(): RequestRef | null;
  /**
   * Calls `callback` once the current write transaction's changes are durable (never if it rolls
   * back); at once outside a transaction. For work that must see the commit: a delivery of an event.
   */
  afterCommit(callback: () => void): void;
  /** Rate-limit budgets shared by all processes; undefined: each limiter keeps its own in memory. */
  readonly rateBuckets?: RateBuckets;
  close(): Promise<void>;
}
