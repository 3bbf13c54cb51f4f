import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { Low, Memory, type Adapter } from 'lowdb';
import { AppendLog, type LogData } from './embedded/append-log.ts';
import { advancePositions, idPosition } from '../identity/ids.ts';
import { pruneExpired } from './expiry.ts';
import { IndexedCollection, type DeletedCursor } from './indexed-collection.ts';
import { FolderLock } from './folder-lock.ts';
import { Mutex } from './mutex.ts';
import type { Collection, CursorList, IndexSpec, Page, PageQuery, RequestRef, Row, RowFilter, Store, TransactionOptions } from './store.ts';

type Data = LogData;

/** The suffix of the collection that keeps a collection's deleted cursors. */
const DELETED_CURSORS = '.deleted_cursors';

const empty = (): Data => ({ version: 1, seq: 0, collections: {} });

/** The write transaction whose body is running: the token its calls carry, its request, what waits for its commit. */
interface Writer {
  request: RequestRef | null;
  afterCommit: (() => void)[];
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The async face of an in-memory collection: every call is answered from memory, at once unless
 * another request's write transaction is half done (then once it is over: `turn`).
 */
class EmbeddedCollection<T extends Row> implements Collection<T> {
  constructor(
    readonly rows: IndexedCollection<T>,
    /** Undefined when a call may go ahead now; otherwise resolves when it may. */
    private readonly turn: () => Promise<void> | undefined,
  ) {}
  /** Runs one call on the rows in its turn (checked again after each wait, in the same step as the call). */
  async #step<R>(call: () => R): Promise<R> {
    for (let wait = this.turn(); wait; wait = this.turn()) await wait;
    return call();
  }
  get(id: string): Promise<T | undefined> {
    return this.#step(() => this.rows.get(id));
  }
  find(index: string, key: string): Promise<readonly T[]> {
    return this.#step(() => this.rows.find(index, key));
  }
  first(index: string, key: string): Promise<T | undefined> {
    return this.#step(() => this.rows.first(index, key));
  }
  count(index: string, key: string): Promise<number> {
    return this.#step(() => this.rows.count(index, key));
  }
  insert(row: T): Promise<T> {
    return this.#step(() => this.rows.insert(row));
  }
  insertOrGet(row: T): Promise<{ inserted: boolean; row: T }> {
    return this.#step(() => {
      const found = this.rows.get(row.id);
      return found ? { inserted: false, row: found } : { inserted: true, row: this.rows.insert(row) };
    });
  }
  update(id: string, patch: Partial<T>): Promise<T> {
    return this.#step(() => this.rows.update(id, patch));
  }
  delete(id: string): Promise<boolean> {
    return this.#step(() => this.rows.delete(id));
  }
  page(index: string, key: string, query: PageQuery, cursorList?: CursorList, filter?: RowFilter): Promise<Page<T>> {
    return this.#step(() => this.rows.page(index, key, query, cursorList, filter));
  }
  all(): Promise<T[]> {
    return this.#step(() => [...this.rows.all()]);
  }
  deleteExpired(now: number): Promise<number> {
    return this.#step(() => pruneExpired(this.rows, now));
  }
}

/**
 * The embedded engine: the whole database is one lowdb document in memory, indexed by
 * IndexedCollection, and kept in `<dir>` by the AppendLog adapter (embedded/: a snapshot and a log of
 * group commits, compacted in the background). Writes are group-committed: every caller of commit() waits for one
 * append that starts after its call, and all callers gathered while an append is under way share the
 * next one, so N concurrent requests cost one fdatasync, not N.
 *
 * Transactions: write transactions run one at a time (their bodies only touch memory, so this costs
 * microseconds), and while one is half done every other request's call waits for it to end, so no
 * request sees another's change half made. A read-only transaction takes no lock: each of its calls
 * sees every write transaction whole or not at all, as each statement of a read does in PostgreSQL.
 * A write is applied to memory at once but answered only after its group commit; a read is answered
 * only once everything it may have seen is durable (it waits for the commit under way, if any). So no
 * answer ever shows state a kill -9 could still lose, as in PostgreSQL, where a transaction is
 * visible only once committed, while writes keep sharing one fdatasync.
 *
 * Which calls belong to the write under way is found through AsyncLocalStorage, switched on only while
 * a write's body runs: once on, Node 20 runs a hook for every promise made anywhere, which costs a
 * read-only request a sixth of its time.
 */
export class EmbeddedStore implements Store {
  readonly engine = 'embedded' as const;
  readonly #collections = new Map<string, IndexedCollection<any>>();
  readonly #wrappers = new Map<string, EmbeddedCollection<any>>();
  /** Write transactions, one at a time. */
  readonly #lock = new Mutex();
  /** The write transaction whose body is running, if any: a token its calls carry in #inWrite. */
  #writer: Writer | null = null;
  readonly #inWrite = new AsyncLocalStorage<Writer>();
  /** Calls of other requests waiting for the write under way to end. */
  #waitingTurn: (() => void)[] = [];
  #folderLock?: FolderLock;
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
  static async open(dir?: string, options: { minCompactBytes?: number } = {}): Promise<EmbeddedStore> {
    let adapter: Adapter<Data> = new Memory<Data>();
    let log: AppendLog | undefined;
    let folderLock: FolderLock | undefined;
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // One process per folder: a second one would keep its own copy in memory and lose writes.
      folderLock = await FolderLock.acquire(dir);
      adapter = log = new AppendLog(dir, options.minCompactBytes);
    }
    const db = new Low<Data>(adapter, empty());
    try {
      await db.read();
    } catch (error) {
      folderLock?.release();
      throw error;
    }
    db.data ??= empty();
    // Ids made from now on sort after every row held, even if the clock went back since.
    advancePositions(db.data.seq);
    const store = new EmbeddedStore(db, log);
    store.#folderLock = folderLock;
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
    let wrapper = this.#wrappers.get(name);
    if (!wrapper) this.#wrappers.set(name, (wrapper = new EmbeddedCollection(this.#collection<T>(name, indexes, true), this.#turn)));
    return wrapper;
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
        (id) => {
          this.#dirty = true;
          this.log?.changed(name, id);
        },
        withCursors ? { get: (id) => (this.db.data.collections[`${name}${DELETED_CURSORS}`] ? cursors().get(id) : undefined), insert: (record) => cursors().insert(record) } : undefined,
      );
      this.#collections.set(name, collection);
    }
    return collection;
  }

  /** A collection's rows in memory, read and changed synchronously (tests, benchmarks, copying a store); the caller commits. */
  memory<T extends Row>(name: string, indexes: IndexSpec<T> = {}): IndexedCollection<T> {
    return this.#collection<T>(name, indexes, true);
  }

  /** Puts rows into a collection with their own sequence numbers (copying a store into this one); the caller commits. */
  restore<T extends Row>(name: string, indexes: IndexSpec<T>, rows: readonly (T & { _seq: number })[]): void {
    const collection = this.memory(name, indexes);
    let top = this.db.data.seq;
    for (const { _seq, ...row } of rows) {
      this.db.data.seq = _seq - 1;
      collection.insert(row as unknown as T);
      top = Math.max(top, _seq);
    }
    this.db.data.seq = top;
  }

  /** The names of the collections this database holds (for copying it). */
  collectionNames(): string[] {
    return Object.keys(this.db.data.collections);
  }

  /** True inside the body of the write transaction under way. */
  #inCurrentWrite(): boolean {
    return this.#writer !== null && this.#inWrite.getStore() === this.#writer;
  }

  /**
   * A call's turn (see EmbeddedCollection): now (undefined), unless another request's write
   * transaction is half done; then a promise resolved when it ends, before the next write starts.
   */
  readonly #turn = (): Promise<void> | undefined =>
    this.#writer === null || this.#inCurrentWrite() ? undefined : new Promise<void>((resolve) => this.#waitingTurn.push(resolve));

  async transaction<R>(body: () => Promise<R>, { readOnly = false, request = null }: TransactionOptions = {}): Promise<R> {
    if (this.#inCurrentWrite()) return body();
    let outcome: { ok: true; value: R } | { ok: false; error: unknown };
    let writer: Writer | undefined;
    if (readOnly) {
      try {
        outcome = { ok: true, value: await body() };
      } catch (error) {
        outcome = { ok: false, error };
      }
    } else {
      // Taken at once when free (the common case): no await, so no turn of the microtask queue.
      const release = this.#lock.tryTake() ?? (await this.#lock.take());
      writer = { request, afterCommit: [] };
      this.#writer = writer;
      try {
        outcome = { ok: true, value: await this.#inWrite.run(writer, body) };
      } catch (error) {
        outcome = { ok: false, error };
      } finally {
        this.#writer = null;
        // Off until the next write: reads then pay no hook per promise.
        this.#inWrite.disable();
        // Calls that waited go before the next write's body starts: they resume first.
        const waiting = this.#waitingTurn;
        this.#waitingTurn = [];
        for (const resume of waiting) resume();
        release();
      }
    }
    // Written or only read: answered once everything this body could see is on disk (at once when
    // nothing is changed or on its way to the disk).
    if (this.#dirty || this.#current) await this.commit();
    // Durable now, whatever the body's outcome: this engine keeps every change it made.
    if (writer) for (const callback of writer.afterCommit) callback();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  async lock(): Promise<void> {}

  currentRequest(): RequestRef | null {
    return this.#inCurrentWrite() ? this.#writer!.request : null;
  }

  afterCommit(callback: () => void): void {
    if (this.#inCurrentWrite()) this.#writer!.afterCommit.push(callback);
    else callback();
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
    this.#folderLock?.release();
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
