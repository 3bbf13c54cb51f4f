/**
 * The storage interface every service uses. Mutations apply to memory at once (so a handler that
 * checks and then writes, without awaiting in between, is atomic on Node's single thread); `commit()`
 * resolves once every mutation made before it is durable. Another engine only has to honour this.
 */
export interface Row {
  id: string;
}

export interface PageQuery {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** Names an ordered index and how a row maps to its key in it (undefined: not in that index). */
export type IndexSpec<T> = Record<string, (row: T) => string | undefined>;

/** Rows come back frozen (nested values too): change them only through update(). */
export interface Collection<T extends Row> {
  get(id: string): T | undefined;
  /** Rows of one key of an index, oldest first. */
  find(index: string, key: string): readonly T[];
  first(index: string, key: string): T | undefined;
  count(index: string, key: string): number;
  insert(row: T): T;
  update(id: string, patch: Partial<T>): T;
  delete(id: string): boolean;
  /**
   * Newest first, cursors by id as in the Stripe API. The order is the position an id carries
   * (identity/ids.ts), so a cursor with one needs no row: live, deleted or never made, it pages from
   * its place. An id without one (made before ids carried it) must be a row, live or deleted, of the
   * same list: of the same index key, or of `cursorList` (an index and key) when given. Throws
   * CursorNotFound otherwise. Rows whose id carries no position come first, in insertion order.
   * (An engine shared by several processes, whose ids may share a position, orders by position and
   * then id, and compares a cursor as that pair.)
   */
  page(index: string, key: string, query: PageQuery, cursorList?: CursorList): Page<T>;
  /** The keys an index holds rows under (for maintenance: see store/expiry.ts). */
  keys(index: string): Iterable<string>;
  /** Every row, oldest first (for maintenance such as expiring old records). */
  all(): Iterable<T>;
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

export interface Store {
  collection<T extends Row>(name: string, indexes?: IndexSpec<T>): Collection<T>;
  /** Resolves when everything mutated so far is on disk. Concurrent callers share one write. */
  commit(): Promise<void>;
  close(): Promise<void>;
}
