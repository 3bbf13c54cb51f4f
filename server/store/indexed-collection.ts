import { OrderedIndex } from './ordered-index.ts';
import { CursorNotFound, type Collection, type IndexSpec, type Page, type PageQuery, type Row } from './store.ts';

type Stored<T> = T & { _seq: number };

/**
 * Rows are handed out as they are stored, so they are frozen, nested values too: a caller that
 * changed one in place would change memory without telling the engine, and the incremental
 * log (AppendLog records only the rows it was told changed) would miss it. Changes go through update().
 */
function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Deleted rows stay findable as cursors for a while, so a client paging past a delete goes on. */
const TOMBSTONES = 10_000;

/**
 * A collection held in memory with ordered secondary indexes. `rows` is the very object the engine
 * persists; `onChange` tells the engine something needs writing.
 */
export class IndexedCollection<T extends Row> implements Collection<T> {
  readonly #indexes = new Map<string, { keyOf: (row: T) => string | undefined; keys: Map<string, OrderedIndex<Stored<T>>> }>();
  readonly #tombstones = new Map<string, Stored<T>>();

  constructor(
    private readonly rows: Record<string, Stored<T>>,
    indexes: IndexSpec<T>,
    private readonly nextSeq: () => number,
    private readonly onChange: (kind: 'insert' | 'update' | 'delete', id: string) => void,
  ) {
    for (const [name, keyOf] of Object.entries(indexes)) this.#indexes.set(name, { keyOf, keys: new Map() });
    const ordered = Object.values(rows).sort((a, b) => a._seq - b._seq);
    for (const row of ordered) this.#index(deepFreeze(row));
  }

  get(id: string): T | undefined {
    return Object.hasOwn(this.rows, id) ? this.rows[id] : undefined;
  }

  find(index: string, key: string): readonly T[] {
    return this.#bucket(index, key)?.rows ?? [];
  }

  first(index: string, key: string): T | undefined {
    return this.#bucket(index, key)?.rows[0];
  }

  count(index: string, key: string): number {
    return this.#bucket(index, key)?.rows.length ?? 0;
  }

  keys(index: string): Iterable<string> {
    const spec = this.#indexes.get(index);
    if (!spec) throw new Error(`no index ${index}`);
    return spec.keys.keys();
  }

  *all(): Iterable<T> {
    yield* Object.values(this.rows).sort((a, b) => a._seq - b._seq);
  }

  insert(row: T): T {
    if (Object.hasOwn(this.rows, row.id)) throw new Error(`duplicate id ${row.id}`);
    const stored = deepFreeze({ ...row, _seq: this.nextSeq() } as Stored<T>);
    this.rows[row.id] = stored;
    this.#index(stored);
    this.onChange('insert', row.id);
    return stored;
  }

  update(id: string, patch: Partial<T>): T {
    const before = this.rows[id];
    if (!before) throw new Error(`no row ${id}`);
    const after = deepFreeze({ ...before, ...patch, id, _seq: before._seq } as Stored<T>);
    this.rows[id] = after;
    for (const index of this.#indexes.values()) {
      const was = index.keyOf(before);
      const now = index.keyOf(after);
      if (was === now) {
        if (now !== undefined) index.keys.get(now)?.replace(after);
        continue;
      }
      if (was !== undefined) this.#removeFrom(index.keys, was, before);
      if (now !== undefined) this.#bucketFor(index.keys, now).add(after);
    }
    this.onChange('update', id);
    return after;
  }

  delete(id: string): boolean {
    const row = this.rows[id];
    if (!row) return false;
    delete this.rows[id];
    for (const index of this.#indexes.values()) {
      const key = index.keyOf(row);
      if (key !== undefined) this.#removeFrom(index.keys, key, row);
    }
    this.#tombstones.set(id, row);
    if (this.#tombstones.size > TOMBSTONES) this.#tombstones.delete(this.#tombstones.keys().next().value!);
    this.onChange('delete', id);
    return true;
  }

  page(index: string, key: string, query: PageQuery, sameList?: (cursor: T) => boolean): Page<T> {
    const bucket = this.#bucket(index, key);
    const rows = bucket?.rows ?? [];
    const belongs = sameList ?? ((row: T) => this.#indexes.get(index)!.keyOf(row) === key);
    const cursorSeq = (param: 'starting_after' | 'ending_before', id: string) => {
      const row = this.rows[id] ?? this.#tombstones.get(id);
      if (!row || !belongs(row)) throw new CursorNotFound(param, id);
      return row._seq;
    };
    const bound = (seq: number) => bucket?.lowerBound(seq) ?? 0;
    if (query.endingBefore !== undefined) {
      // Objects newer than the cursor, the `limit` closest to it, still listed newest first.
      const start = bound(cursorSeq('ending_before', query.endingBefore) + 1);
      const end = Math.min(rows.length, start + query.limit);
      return { data: rows.slice(start, end).reverse(), hasMore: end < rows.length };
    }
    const end = query.startingAfter === undefined ? rows.length : bound(cursorSeq('starting_after', query.startingAfter));
    const start = Math.max(0, end - query.limit);
    return { data: rows.slice(start, end).reverse(), hasMore: start > 0 };
  }

  #index(row: Stored<T>): void {
    for (const index of this.#indexes.values()) {
      const key = index.keyOf(row);
      if (key !== undefined) this.#bucketFor(index.keys, key).add(row);
    }
  }

  #bucket(index: string, key: string): OrderedIndex<Stored<T>> | undefined {
    const spec = this.#indexes.get(index);
    if (!spec) throw new Error(`no index ${index}`);
    return spec.keys.get(key);
  }

  /** Removes a row from its bucket, and the bucket once empty, so keys() lists only live keys. */
  #removeFrom(keys: Map<string, OrderedIndex<Stored<T>>>, key: string, row: Stored<T>): void {
    const bucket = keys.get(key);
    bucket?.remove(row);
    if (bucket && bucket.rows.length === 0) keys.delete(key);
  }

  #bucketFor(keys: Map<string, OrderedIndex<Stored<T>>>, key: string): OrderedIndex<Stored<T>> {
    let bucket = keys.get(key);
    if (!bucket) keys.set(key, (bucket = new OrderedIndex((row) => row._seq)));
    return bucket;
  }
}
