import { added, firstAtLeast, firstOf, lowerBound, removed, replaced, rowsOf, sizeOf, type Bucket } from './ordered-index.ts';
import { idPosition, isUnpositionedId } from '../identity/ids.ts';
import { CursorNotFound, hasKey, rowMatches, type CursorList, type IndexSpec, type Page, type PageQuery, type Row, type RowFilter } from './store.ts';

type Stored<T> = T & { _seq: number };

/**
 * Rows are handed out as they are stored, so they are frozen, nested values too: a caller that
 * changed one in place would change memory without telling the engine, and the incremental
 * log (AppendLog records only the rows it was told changed) would miss it. Changes go through update().
 */
function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) {
      const child = value[key];
      if (child !== null && typeof child === 'object') deepFreeze(child);
    }
  }
  return value;
}

/**
 * Where a deleted row whose id carries no position (made before ids did: isUnpositionedId) stood, and
 * in which lists: kept (durably, by the engine) so it stays a cursor. No id made since has that shape,
 * so the record never grows past the rows made before positions; other ids (hashes, a test's names)
 * need none, as they are never cursors.
 */
export interface DeletedCursor {
  id: string;
  position: number;
  /** Index name → the key the row was under. */
  lists: Record<string, string>;
}

export interface DeletedCursors {
  get(id: string): DeletedCursor | undefined;
  insert(record: DeletedCursor): unknown;
}

type Buckets<T extends Row> = Map<string, Bucket<Stored<T>>>;
type KeyOf<T> = IndexSpec<T>[string];

/** The keys a row has in an index, as a list (none, one, or several). */
const keyList = (keys: string | readonly string[] | undefined): readonly string[] => (keys === undefined ? [] : typeof keys === 'string' ? [keys] : keys);

/**
 * A collection held in memory with ordered secondary indexes. `rows` is the very Map the engine
 * persists; `onChange` tells the engine something needs writing.
 */
export class IndexedCollection<T extends Row> {
  readonly #indexes = new Map<string, { keyOf: KeyOf<T>; keys: Buckets<T> }>();

  constructor(
    private readonly rows: Map<string, Stored<T>>,
    indexes: IndexSpec<T>,
    /** The sequence of a new row: the position its id carries, else the next of the engine's own. */
    private readonly nextSeq: (id: string) => number,
    private readonly onChange: (id: string) => void,
    private readonly deletedCursors?: DeletedCursors,
  ) {
    for (const [name, keyOf] of Object.entries(indexes)) this.#indexes.set(name, { keyOf, keys: new Map() });
    // Rows come in sequence order (a Map keeps insertion order, and snapshots are written in it);
    // sort only when they do not, then build each index in one pass of appends.
    let ordered = [...rows.values()];
    for (let i = 1; i < ordered.length; i++) {
      if (ordered[i - 1]._seq > ordered[i]._seq) {
        ordered = ordered.sort((a, b) => a._seq - b._seq);
        break;
      }
    }
    for (const row of ordered) deepFreeze(row);
    for (const { keyOf, keys } of this.#indexes.values()) {
      for (const row of ordered) {
        for (const key of keyList(keyOf(row))) {
          const bucket = keys.get(key);
          if (bucket === undefined) keys.set(key, row);
          else if (Array.isArray(bucket)) bucket.push(row);
          else keys.set(key, [bucket, row]);
        }
      }
    }
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  find(index: string, key: string): readonly T[] {
    return rowsOf(this.#bucket(index, key));
  }

  first(index: string, key: string): T | undefined {
    return firstOf(this.#bucket(index, key));
  }

  count(index: string, key: string): number {
    return sizeOf(this.#bucket(index, key));
  }

  keys(index: string): Iterable<string> {
    const spec = this.#indexes.get(index);
    if (!spec) throw new Error(`no index ${index}`);
    return spec.keys.keys();
  }

  *all(): Iterable<T> {
    yield* [...this.rows.values()].sort((a, b) => a._seq - b._seq);
  }

  insert(row: T): T {
    if (this.rows.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    const stored = deepFreeze({ ...row, _seq: this.nextSeq(row.id) } as Stored<T>);
    this.rows.set(row.id, stored);
    this.#index(stored);
    this.onChange(row.id);
    return stored;
  }

  update(id: string, patch: Partial<T>): T {
    const before = this.rows.get(id);
    if (!before) throw new Error(`no row ${id}`);
    const after = deepFreeze({ ...before, ...patch, id, _seq: before._seq } as Stored<T>);
    this.rows.set(id, after);
    for (const index of this.#indexes.values()) {
      const was = index.keyOf(before);
      const now = index.keyOf(after);
      if (typeof was === 'object' || typeof now === 'object') {
        // Several keys: kept ones hold the new version, gone ones lose the row, new ones gain it.
        const wasKeys = new Set(keyList(was));
        for (const key of keyList(now)) {
          if (wasKeys.delete(key)) index.keys.set(key, replaced(index.keys.get(key)!, after));
          else index.keys.set(key, added(index.keys.get(key), after));
        }
        for (const key of wasKeys) this.#removeFrom(index.keys, key, before);
        continue;
      }
      if (was === now) {
        const bucket = now === undefined ? undefined : index.keys.get(now);
        if (bucket !== undefined) index.keys.set(now!, replaced(bucket, after));
        continue;
      }
      if (was !== undefined) this.#removeFrom(index.keys, was, before);
      if (now !== undefined) index.keys.set(now, added(index.keys.get(now), after));
    }
    this.onChange(id);
    return after;
  }

  delete(id: string): boolean {
    const row = this.rows.get(id);
    if (!row) return false;
    this.rows.delete(id);
    for (const index of this.#indexes.values()) for (const key of keyList(index.keyOf(row))) this.#removeFrom(index.keys, key, row);
    if (this.deletedCursors && isUnpositionedId(id) && !this.deletedCursors.get(id)) {
      // The lists a cursor may walk: those of one key per row (a page's list and its cursorList).
      const lists: Record<string, string> = {};
      for (const [name, index] of this.#indexes) {
        const key = index.keyOf(row);
        if (typeof key === 'string') lists[name] = key;
      }
      this.deletedCursors.insert({ id, position: row._seq, lists });
    }
    this.onChange(id);
    return true;
  }

  page(index: string, key: string, query: PageQuery, cursorList?: CursorList, filter?: RowFilter): Page<T> {
    // No closures here: a list is the hottest read, and each closure made per call costs (more so under tsx).
    const rows = rowsOf(this.#bucket(index, key));
    if (query.range !== undefined || filter !== undefined) return this.#filteredPage(rows, index, key, query, cursorList ?? { index, key }, filter);
    if (query.endingBefore !== undefined) {
      // Objects newer than the cursor, the `limit` closest to it, still listed newest first.
      const start = lowerBound(rows, this.#cursorSeq(cursorList ?? { index, key }, 'ending_before', query.endingBefore) + 1);
      const end = Math.min(rows.length, start + query.limit);
      return { data: rows.slice(start, end).reverse(), hasMore: end < rows.length };
    }
    const end =
      query.startingAfter === undefined ? rows.length : lowerBound(rows, this.#cursorSeq(cursorList ?? { index, key }, 'starting_after', query.startingAfter));
    const start = Math.max(0, end - query.limit);
    return { data: rows.slice(start, end).reverse(), hasMore: start > 0 };
  }

  /**
   * A page of the list's rows within `query.range` that meet `filter`, walking the shortest of the
   * list and the filter's `within` lists (each holds every row that can match, in the same sequence
   * order, so the page and its cursors are the same whichever is walked): a rare metadata pair reads
   * its own few rows rather than the merchant's whole list.
   */
  #filteredPage(rows: readonly Stored<T>[], index: string, key: string, query: PageQuery, list: CursorList, filter: RowFilter | undefined): Page<T> {
    const matches = rowMatches(query.range, filter);
    let shortest: readonly Stored<T>[] | undefined;
    for (const other of filter?.within ?? []) {
      const candidate = rowsOf(this.#bucket(other.index, other.key));
      if (candidate.length < (shortest ?? rows).length) shortest = candidate;
    }
    if (shortest === undefined) return this.#matchingPage(rows, query, list, matches);
    const keyOf = this.#indexes.get(index)!.keyOf;
    return this.#matchingPage(shortest, query, list, (row) => hasKey(keyOf(row as T), key) && matches(row));
  }

  /**
   * A page of only the rows that match (within `query.range`, meeting a RowFilter): walked from the
   * cursor, row by row, until the page and one more are found. The list is in memory, so a test per
   * row costs nanoseconds.
   */
  #matchingPage(rows: readonly Stored<T>[], query: PageQuery, list: CursorList, matches: (row: object) => boolean): Page<T> {
    const found: T[] = [];
    // A range on a field that grows with the sequence is a stretch of the list: only it is walked.
    const range = query.range?.grows ? query.range : undefined;
    const from = range?.gte === undefined ? 0 : firstAtLeast(rows, range.field, range.gte);
    const to = range?.lte === undefined ? rows.length : firstAtLeast(rows, range.field, range.lte, true);
    if (query.endingBefore !== undefined) {
      for (let i = Math.max(from, lowerBound(rows, this.#cursorSeq(list, 'ending_before', query.endingBefore) + 1)); i < to && found.length <= query.limit; i++)
        if (matches(rows[i])) found.push(rows[i]);
      return { data: found.slice(0, query.limit).reverse(), hasMore: found.length > query.limit };
    }
    const end = Math.min(to, query.startingAfter === undefined ? rows.length : lowerBound(rows, this.#cursorSeq(list, 'starting_after', query.startingAfter)));
    for (let i = end - 1; i >= from && found.length <= query.limit; i--) if (matches(rows[i])) found.push(rows[i]);
    return { data: found.slice(0, query.limit), hasMore: found.length > query.limit };
  }

  /**
   * A cursor's place: the position its id carries (a row's sequence is that position, so no row is
   * needed); for an id without one, the sequence of its row, live or deleted, of the list; else
   * CursorNotFound.
   */
  #cursorSeq(list: CursorList, param: 'starting_after' | 'ending_before', id: string): number {
    const position = idPosition(id);
    if (position !== undefined) return position;
    const row = this.rows.get(id);
    if (row !== undefined) {
      if (hasKey(this.#indexes.get(list.index)!.keyOf(row), list.key)) return row._seq;
    } else {
      const deleted = this.deletedCursors?.get(id);
      if (deleted !== undefined && deleted.lists[list.index] === list.key) return deleted.position;
    }
    throw new CursorNotFound(param, id);
  }

  #index(row: Stored<T>): void {
    for (const index of this.#indexes.values()) {
      const keys = index.keyOf(row);
      if (typeof keys === 'string') index.keys.set(keys, added(index.keys.get(keys), row));
      else if (keys !== undefined) for (const key of keys) index.keys.set(key, added(index.keys.get(key), row));
    }
  }

  #bucket(index: string, key: string): Bucket<Stored<T>> | undefined {
    const spec = this.#indexes.get(index);
    if (!spec) throw new Error(`no index ${index}`);
    return spec.keys.get(key);
  }

  /** Removes a row from its bucket, and the bucket once empty, so keys() lists only live keys. */
  #removeFrom(keys: Buckets<T>, key: string, row: Stored<T>): void {
    const bucket = keys.get(key);
    if (bucket === undefined) return;
    const rest = removed(bucket, row);
    if (rest === undefined) keys.delete(key);
    else if (rest !== bucket) keys.set(key, rest);
  }
}
