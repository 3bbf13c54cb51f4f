import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Low, Memory, type Adapter } from 'lowdb';
import { DocumentText } from './document-text.ts';
import { DurableTextFile } from './durable-text-file.ts';
import { IndexedCollection } from './indexed-collection.ts';
import type { Collection, IndexSpec, Row, Store } from './store.ts';

interface Data {
  version: 1;
  seq: number;
  collections: Record<string, Record<string, any>>;
}

const empty = (): Data => ({ version: 1, seq: 0, collections: {} });

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The lowdb engine: the whole database is one JSON document in memory, indexed by
 * IndexedCollection, and written to `<dir>/cpe.json`. Writes are group-committed: every caller of
 * commit() waits for one file write that starts after its call, and all callers gathered while a
 * write is under way share the next one, so N concurrent requests cost one serialisation, not N.
 */
export class LowdbStore implements Store {
  readonly #collections = new Map<string, IndexedCollection<any>>();
  #dirty = false;
  #waiters: Waiter[] = [];
  #current: Promise<void> | null = null;
  #loop: Promise<void> | null = null;
  /** How many whole-file writes have been made: a measure of how well commits are grouped. */
  writes = 0;

  private constructor(
    private readonly db: Low<Data>,
    /** The file's serialiser, told of every change (none for the in-memory database). */
    private readonly text?: DocumentText,
  ) {}

  /** Opens (or creates) `<dir>/cpe.json`; without `dir`, an in-memory database (for tests). */
  static async open(dir?: string): Promise<LowdbStore> {
    let adapter: Adapter<Data> = new Memory<Data>();
    let text: DocumentText | undefined;
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      text = new DocumentText();
      adapter = new JsonDocument(new DurableTextFile(join(dir, 'cpe.json')), text);
    }
    const db = new Low<Data>(adapter, empty());
    await db.read();
    db.data ??= empty();
    return new LowdbStore(db, text);
  }

  collection<T extends Row>(name: string, indexes: IndexSpec<T> = {}): Collection<T> {
    let collection = this.#collections.get(name);
    if (!collection) {
      const rows = (this.db.data.collections[name] ??= {});
      collection = new IndexedCollection<T>(rows, indexes, () => ++this.db.data.seq, (kind, id) => {
        this.#dirty = true;
        this.text?.changed(name, kind, id);
      });
      this.#collections.set(name, collection);
    }
    return collection;
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

/** Turns the document into JSON text for a text adapter. */
class JsonDocument implements Adapter<Data> {
  constructor(
    private readonly file: DurableTextFile,
    private readonly text: DocumentText,
  ) {}

  async read(): Promise<Data | null> {
    const text = await this.file.read();
    return text === null ? null : (JSON.parse(text) as Data);
  }

  write(data: Data): Promise<void> {
    // The bytes of JSON.stringify(data), mostly kept from earlier writes (see DocumentText).
    return this.file.write(this.text.chunks(data));
  }
}
