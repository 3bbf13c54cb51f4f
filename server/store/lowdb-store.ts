import { mkdirSync } from 'node:fs';
import { Low, Memory, type Adapter } from 'lowdb';
import { AppendLog, type LogData } from './append-log.ts';
import { advancePositions, idPosition } from '../identity/ids.ts';
import { IndexedCollection, type DeletedCursor } from './indexed-collection.ts';
import type { Collection, IndexSpec, Row, Store } from './store.ts';

type Data = LogData;

/** The suffix of the collection that keeps a collection's deleted cursors. */
const DELETED_CURSORS = '.deleted_cursors';

const empty = (): Data => ({ version: 1, seq: 0, collections: {} });

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The lowdb engine: the whole database is one document in memory, indexed by IndexedCollection,
 * and kept in `<dir>` by the AppendLog adapter (a snapshot, `cpe.json`, and a log of group commits,
 * compacted in the background). Writes are group-committed: every caller of commit() waits for one
 * append that starts after its call, and all callers gathered while an append is under way share the
 * next one, so N concurrent requests cost one fdatasync, not N.
 */
export class LowdbStore implements Store {
  readonly #collections = new Map<string, IndexedCollection<any>>();
  #dirty = false;
  #waiters: Waiter[] = [];
  #current: Promise<void> | null = null;
  #loop: Promise<void> | null = null;
  /** How many appends have been made: a measure of how well commits are grouped. */
  writes = 0;

  private constructor(
    private readonly db: Low<Data>,
    /** The file adapter, told of every change (none for the in-memory database). */
    readonly log?: AppendLog,
  ) {}

  /** Opens (or creates) the database in `dir`; without `dir`, an in-memory database (for tests). */
  static async open(dir?: string, options: { minCompactBytes?: number } = {}): Promise<LowdbStore> {
    let adapter: Adapter<Data> = new Memory<Data>();
    let log: AppendLog | undefined;
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      adapter = log = new AppendLog(dir, options.minCompactBytes);
    }
    const db = new Low<Data>(adapter, empty());
    await db.read();
    db.data ??= empty();
    // Ids made from now on sort after every row held, even if the clock went back since.
    advancePositions(db.data.seq);
    const store = new LowdbStore(db, log);
    // A folder from before the log: write it as a snapshot now, so the old file is read only once.
    if (log?.migrating) await log.compact(db.data);
    return store;
  }

  /** Writes a new snapshot now and drops the logs it includes (normally automatic; tests and benchmarks). */
  async compact(): Promise<void> {
    await this.commit();
    await this.log?.compact(this.db.data);
  }

  collection<T extends Row>(name: string, indexes: IndexSpec<T> = {}): Collection<T> {
    return this.#collection<T>(name, indexes, true);
  }

  #collection<T extends Row>(name: string, indexes: IndexSpec<T>, withCursors: boolean): IndexedCollection<T> {
    let collection = this.#collections.get(name);
    if (!collection) {
      const rows = (this.db.data.collections[name] ??= new Map());
      // Deleted rows whose ids carry no position, kept as cursors (see DeletedCursor); made on first need.
      let deleted: IndexedCollection<DeletedCursor> | undefined;
      const cursors = () => (deleted ??= this.#collection<DeletedCursor>(`${name}${DELETED_CURSORS}`, {}, false));
      collection = new IndexedCollection<T>(
        rows,
        indexes,
        (id) => this.#sequence(id),
        (kind, id) => {
          this.#dirty = true;
          this.log?.changed(name, kind, id);
        },
        withCursors ? { get: (id) => (this.db.data.collections[`${name}${DELETED_CURSORS}`] ? cursors().get(id) : undefined), insert: (record) => cursors().insert(record) } : undefined,
      );
      this.#collections.set(name, collection);
    }
    return collection;
  }

  /** A new row's sequence: its id's position (ids.ts), else one past the highest; `seq` is the highest given. */
  #sequence(id: string): number {
    const data = this.db.data;
    const position = idPosition(id);
    if (position !== undefined) {
      if (position > data.seq) data.seq = position;
      return position;
    }
    advancePositions(++data.seq);
    return data.seq;
  }

  commit(): Promise<void> {
    // Everything mutated is already in the write under way: wait for that one.
    if (!this.#dirty) return this.#current ?? Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#loop ??= this.#drain();
    });
  }

  async close(): Promise<void> {
    await this.commit();
    await this.#loop;
    await this.log?.close();
  }

  async #drain(): Promise<void> {
    // Let the requests that arrived in the same turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.#waiters.length) {
        const batch = this.#waiters;
        this.#waiters = [];
        this.#dirty = false;
        // db.write() serialises synchronously, so this snapshot holds every batched mutation.
        this.#current = this.db.write();
        this.writes++;
        try {
          await this.#current;
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          this.#dirty = true;
          for (const waiter of batch) waiter.reject(error);
        }
      }
    } finally {
      this.#current = null;
      this.#loop = null;
    }
  }
}
