import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { ApiError } from '../http/api-error.ts';
import { backoffMs, type Backoff } from '../backoff.ts';
import type { Logger } from '../logger.ts';
import { DatabaseAvailability, unreachableReason } from './pg-availability.ts';
import { migrate } from './pg-migrate.ts';
import { ATTEMPT_COLUMNS, TABLES, type Column, type TableDef } from './pg-schema.ts';
import { idPosition, isUnpositionedId } from '../identity/ids.ts';
import { CursorNotFound, hasKey, type Collection, type CursorList, type IndexSpec, type Page, type PageQuery, type RateBuckets, type RequestRef, type Row, type RowFilter, type Store, type TransactionOptions } from './store.ts';

const HOUR = 3600;

/** bigint and numeric as JavaScript numbers: CPE's amounts and Unix seconds fit well within 2^53. */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return (pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown)(oid, format);
  },
};

const quote = (name: string) => `"${name}"`;

/** An intent's attempts in order, as one JSON array (a subquery of the intent's row). */
const ATTEMPTS_OF = (alias: string) =>
  `(SELECT coalesce(json_agg(a ORDER BY a.position), '[]') FROM payment_attempts a WHERE a.intent_id = ${alias}.id) AS attempts`;

interface Tx {
  /** The transaction's connection, BEGIN sent: taken at its first statement. */
  connection?: Promise<pg.PoolClient>;
  /** Rows this transaction put in a process cache: forgotten again if it rolls back. */
  cached: { cache: Map<string, unknown>; id: string }[];
  /**
   * Rows this transaction holds locked (read for update, inserted or updated), as it last saw them:
   * nobody else can change them before it ends, so reading one again costs no query.
   */
  rows: Map<string, unknown>;
  /** The error that aborted this transaction: every later statement of it fails the same way. */
  failure?: unknown;
  request: RequestRef | null;
  /** Called once COMMIT has succeeded. */
  afterCommit: (() => void)[];
}

/** Rows of immutable tables a process keeps, per table (a bound on memory, not on correctness). */
const CACHED_ROWS = 50_000;

/** The wait between tries to reach the database at start (it may start after the service). */
const START_BACKOFF: Backoff = { initialMs: 250, maxMs: 5_000 };

/** How long a new connection may take to open before the database counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long a request waits for a connection while every one of the pool's is busy. node-postgres
 * times that wait with its connect timeout: under load a busy, healthy pool answered 503
 * database_unavailable after 5 s and logged an outage (CI, 40 writes through a pool of 2). So the
 * pool waits this long for a free connection, and each client times its own connect.
 */
const BUSY_POOL_WAIT_MS = 30_000;

/** A client that gives up opening its connection after CONNECT_TIMEOUT_MS (node-postgres says "timeout expired"). */
class TimedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

export interface PgStoreOptions {
  poolSize?: number;
  /** Where an outage (and the end of one) is logged, once each. */
  logger?: Logger;
  /** The database as logs name it, without its password. */
  database?: string;
  /**
   * Called each time the database cannot be reached at start, before the next try (after `delayMs`):
   * the store waits for it rather than failing, however long it takes.
   */
  onWaiting?(wait: { reason: string; attempt: number; delayMs: number }): void;
}

/** Errors of the database that a client can act on: retry, or it exists already. */
function asApiError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === '23505')
    return new ApiError('resource_already_exists', 'Another request made the same object at the same time: it exists now.');
  if (code === '40P01' || code === '40001' || code === '55P03')
    return new ApiError('lock_timeout', 'Another request was changing the same object: retry.', null, { 'Retry-After': '1' });
  return error;
}

/**
 * The PostgreSQL engine: every collection is a table of its own (pg-schema.ts), every request a
 * transaction (READ COMMITTED; a check-then-change of one row locks it with `get(id, {forUpdate})`).
 * A write is visible to other requests and processes once its transaction has committed, that is once
 * it is durable. Any number of processes share one database; rate budgets, idempotency records,
 * tokens, challenges and intents live in it, so they hold across processes.
 */
export class PgStore implements Store {
  readonly engine = 'postgres' as const;
  readonly #tx = new AsyncLocalStorage<Tx>();
  readonly #collections = new Map<string, PgCollection<any>>();
  readonly rateBuckets: RateBuckets;

  private constructor(
    readonly pool: pg.Pool,
    /** The rate buckets' own connections: a request holding one of `pool` for its transaction never waits on `pool` again. */
    private readonly ratePool: pg.Pool,
    readonly availability: DatabaseAvailability,
  ) {
    this.rateBuckets = new PgRateBuckets(ratePool, (error) => this.#failure(error), availability);
  }

  /**
   * Connects, and brings the schema up to date (migrations run once, whoever starts first). While
   * the database cannot be reached it waits, trying again with backoff (onWaiting is told each time);
   * any other failure (a wrong password, no such database, a schema newer than this build) is thrown.
   */
  static async open(url: string, { poolSize = 20, logger, database = url, onWaiting }: PgStoreOptions = {}): Promise<PgStore> {
    const settings = { connectionString: url, types, connectionTimeoutMillis: BUSY_POOL_WAIT_MS, Client: TimedClient as new () => pg.ClientBase, keepAlive: true };
    const pool = new pg.Pool({ ...settings, max: poolSize });
    const ratePool = new pg.Pool({ ...settings, max: Math.max(2, Math.ceil(poolSize / 4)) });
    const availability = new DatabaseAvailability(logger, database);
    // An idle client that errors (the server stopped, or ended that connection) is dropped from the
    // pool, not a crash; an outage counts only once a request meets it.
    pool.on('error', () => {});
    ratePool.on('error', () => {});
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await migrate(pool);
          break;
        } catch (error) {
          const reason = unreachableReason(error);
          if (reason === undefined) throw error;
          const delayMs = backoffMs(attempt, START_BACKOFF);
          onWaiting?.({ reason, attempt, delayMs });
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
      }
    } catch (error) {
      await Promise.all([pool.end(), ratePool.end()]);
      throw error;
    }
    return new PgStore(pool, ratePool, availability);
  }

  /** What a failed statement answers: 503 while the database is unreachable, else the database's error as the client can act on it. */
  #failure(error: unknown): unknown {
    return this.availability.failed(error) ?? asApiError(error);
  }

  readonly #statements = new Map<string, string>();
  /** Connections given a listener for their 'error' event (once each: the pool hands them out again). */
  readonly #listened = new WeakSet<pg.PoolClient>();

  /**
   * Runs a statement in the current transaction, or on its own. Each distinct text is a named
   * (prepared) statement: parsed and planned once per connection, not per call. `planEach`: an
   * unnamed statement, planned for its values at every call, for a statement whose best plan depends
   * on them (a filtered page: a metadata pair held by one intent or by a third of them). A named one
   * would get, after five calls, one generic plan for all values.
   */
  async query<R extends pg.QueryResultRow = any>(text: string, values: unknown[] = [], { planEach = false } = {}): Promise<pg.QueryResult<R>> {
    const tx = this.#tx.getStore();
    if (tx?.failure) throw tx.failure;
    let name = planEach ? undefined : this.#statements.get(text);
    if (name === undefined && !planEach) this.#statements.set(text, (name = `cpe_${this.#statements.size}`));
    try {
      let result: pg.QueryResult<R>;
      if (tx) {
        tx.connection ??= this.#begin();
        result = await (await tx.connection).query<R>({ name, text, values });
      } else result = await this.pool.query<R>({ name, text, values });
      this.availability.succeeded();
      return result;
    } catch (error) {
      const mapped = this.#failure(error);
      if (tx) tx.failure = mapped;
      throw mapped;
    }
  }

  async #begin(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    // A connection reset while a transaction holds it: node-postgres fails the statement under way
    // (the transaction fails as an outage) and also emits 'error' on the client, which with no
    // listener (the pool listens only while a connection is idle) would end the process.
    if (!this.#listened.has(client)) {
      this.#listened.add(client);
      client.on('error', () => {});
    }
    try {
      await client.query('BEGIN');
      return client;
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  /** Notes a row put in a process cache, so that a rollback takes it out again. */
  cached(cache: Map<string, unknown>, id: string): void {
    this.#tx.getStore()?.cached.push({ cache, id });
  }

  get inWriteTransaction(): boolean {
    return this.#tx.getStore() !== undefined;
  }

  /** The rows the current write transaction holds locked (see Tx.rows). */
  get lockedRows(): Map<string, unknown> | undefined {
    return this.#tx.getStore()?.rows;
  }

  collection<T extends Row>(name: string, indexes: IndexSpec<T> = {}): Collection<T> {
    let collection = this.#collections.get(name);
    if (!collection) {
      const def = TABLES[name];
      if (!def) throw new Error(`No table for collection ${name} (server/store/pg-schema.ts)`);
      collection = new PgCollection<T>(this, name, def, indexes);
      this.#collections.set(name, collection);
    } else if (Object.keys(indexes).length) collection.indexes = indexes;
    return collection;
  }

  async transaction<R>(body: () => Promise<R>, { readOnly = false, commitOn, request = null }: TransactionOptions = {}): Promise<R> {
    if (this.#tx.getStore()) return body();
    // A read runs its statements on their own: each sees only committed (durable) writes.
    if (readOnly) return body();
    // The connection is taken and BEGIN sent at the first statement: a request refused before it
    // touches the database (a bad body, a cached credential's 404) costs PostgreSQL nothing.
    const tx: Tx = { cached: [], rows: new Map(), request, afterCommit: [] };
    const forget = () => tx.cached.forEach(({ cache, id }) => cache.delete(id));
    let outcome: { ok: true; value: R } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await this.#tx.run(tx, body) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // A body that went on after a failed statement wrote nothing that lasts: it fails as that statement did.
    if (outcome.ok && tx.failure) outcome = { ok: false, error: tx.failure };
    if (!tx.connection) {
      // Nothing was written: nothing to wait for.
      if (outcome.ok) for (const callback of tx.afterCommit) callback();
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    }
    let client: pg.PoolClient;
    try {
      client = await tx.connection;
    } catch (error) {
      forget();
      throw outcome.ok ? this.#failure(error) : outcome.error; // never connected: nothing was written
    }
    const commit = !tx.failure && (outcome.ok || (commitOn?.(outcome.error) ?? false));
    let broken = false;
    try {
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      broken = true;
      forget();
      if (outcome.ok) throw this.#failure(error);
    } finally {
      client.release(broken);
    }
    if (!commit) forget();
    else if (!broken) for (const callback of tx.afterCommit) callback();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  currentRequest(): RequestRef | null {
    return this.#tx.getStore()?.request ?? null;
  }

  afterCommit(callback: () => void): void {
    const tx = this.#tx.getStore();
    if (tx) tx.afterCommit.push(callback);
    else callback();
  }

  async lock(name: string): Promise<void> {
    if (!this.#tx.getStore()) throw new Error('store.lock() holds until the transaction ends: call it inside store.transaction()');
    await this.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
  }

  /** Drops rate buckets idle long enough to be full again (pruning, beside expired rows). */
  async pruneEngine(): Promise<number> {
    const buckets = await this.query(`DELETE FROM rate_buckets WHERE at < extract(epoch FROM clock_timestamp()) - $1`, [HOUR]);
    return buckets.rowCount ?? 0;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.ratePool.end()]);
  }
}

/**
 * One token bucket per key in rate_buckets, taken in one atomic statement on the database's clock:
 * exact across any number of processes (no approximation), one round trip per limited request.
 */
class PgRateBuckets implements RateBuckets {
  constructor(
    private readonly pool: pg.Pool,
    private readonly failure: (error: unknown) => unknown,
    private readonly availability: DatabaseAvailability,
  ) {}

  async take(key: string, perSecond: number, burst: number) {
    try {
      const taken = await this.#take(key, perSecond, burst);
      this.availability.succeeded();
      return taken;
    } catch (error) {
      throw this.failure(error);
    }
  }

  async #take(key: string, perSecond: number, burst: number) {
    const refill = `LEAST($3::float8, b.tokens + (extract(epoch FROM clock_timestamp()) - b.at) * $2::float8)`;
    const taken = await this.pool.query(
      `INSERT INTO rate_buckets AS b (key, tokens, at) VALUES ($1, $3::float8 - 1, extract(epoch FROM clock_timestamp()))
       ON CONFLICT (key) DO UPDATE SET tokens = ${refill} - 1, at = extract(epoch FROM clock_timestamp())
       WHERE ${refill} >= 1 RETURNING tokens`,
      [key, perSecond, burst],
    );
    if (taken.rowCount) return { allowed: true as const };
    const { rows } = await this.pool.query(`SELECT ${refill} AS tokens FROM rate_buckets b WHERE key = $1`, [key, perSecond, burst]);
    const tokens = rows[0]?.tokens ?? 0;
    return { allowed: false as const, retryAfter: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
  }
}

/** An attempt as the service writes it, from its payment_attempts row (json_agg: numbers as JSON numbers). */
function attemptOf(record: Record<string, unknown>): Record<string, unknown> {
  const attempt: Record<string, unknown> = {};
  for (const name of Object.keys(ATTEMPT_COLUMNS)) attempt[name] = record[name];
  return attempt;
}

/** An intent's attempts as the JSON the upsert reads (only their columns, with intent and position). */
function attemptsJson(intentId: string, attempts: Record<string, unknown>[]): string {
  return JSON.stringify(attempts.map((a, position) => ({ ...attemptOf(a), intent_id: intentId, position })));
}

/** Upserts an intent's attempts from the JSON array in parameter $n. */
const SAVE_ATTEMPTS = (n: number) => {
  const names = Object.keys(ATTEMPT_COLUMNS);
  const columns = [...names, 'intent_id', 'position'].map(quote).join(', ');
  const typed = [...names.map((c) => `${quote(c)} ${ATTEMPT_COLUMNS[c].type}`), '"intent_id" text', '"position" int'].join(', ');
  const updates = names.filter((c) => c !== 'id').map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ');
  return `INSERT INTO payment_attempts (${columns}) SELECT ${columns} FROM jsonb_to_recordset($${n}::jsonb) AS x(${typed}) ON CONFLICT (id) DO UPDATE SET ${updates}`;
};

/** A collection as a table: rows are built from columns in the order the service writes them. */
class PgCollection<T extends Row> implements Collection<T> {
  readonly #select: string;
  readonly #returning: string;
  readonly #columns: [string, Column][];
  /** Rows of an immutable table (kept for ever) or of one with cacheSeconds (until `until`, performance.now() ms). */
  readonly #cache?: Map<string, { row: T; until: number }>;

  constructor(
    private readonly store: PgStore,
    private readonly name: string,
    private readonly def: TableDef,
    public indexes: IndexSpec<T>,
  ) {
    this.#columns = Object.entries(def.columns);
    if (def.immutable || def.cacheSeconds !== undefined) this.#cache = new Map();
    const attempts = def.attempts ? `, ${ATTEMPTS_OF('t')}` : '';
    this.#returning = `RETURNING t.*${attempts}`;
    this.#select = `SELECT t.*${attempts} FROM ${def.table} t`;
  }

  #row(record: Record<string, any>): T {
    const row: Record<string, unknown> = {};
    for (const [name, column] of this.#columns) {
      // An intent's attempts sit where the service writes them, before created_at.
      if (name === 'created_at' && this.def.attempts) row.attempts = (record.attempts as Record<string, unknown>[]).map(attemptOf);
      const value = record[name];
      if (value === null && column.optional) continue;
      row[name] = value;
    }
    row._seq = record.seq;
    return row as unknown as T;
  }

  #value(column: Column, value: unknown): unknown {
    if (value === undefined) return null;
    if (column.type === 'jsonb' || column.type === 'json') return value === null ? null : JSON.stringify(value);
    return value;
  }

  #index(index: string): string {
    const column = this.def.indexes[index];
    if (!column) throw new Error(`no index ${index} on ${this.name}`);
    return quote(column);
  }

  #derived(row: T): [string, unknown][] {
    return Object.keys(this.def.derived ?? {}).map((index) => {
      const key = this.indexes[index]?.(row);
      return [this.def.indexes[index], key === undefined ? null : this.def.derived![index] === 'bigint' ? Number(key) : key];
    });
  }

  /** Remembers a row the current transaction holds locked. */
  #locked(row: T): T {
    this.store.lockedRows?.set(`${this.def.table}:${row.id}`, row);
    return row;
  }

  async get(id: string, { forUpdate = false }: { forUpdate?: boolean } = {}): Promise<T | undefined> {
    const kept = this.#cache?.get(id);
    const cached = (kept && kept.until > performance.now() ? kept.row : undefined) ?? (this.store.lockedRows?.get(`${this.def.table}:${id}`) as T | undefined);
    if (cached) return cached;
    const lock = forUpdate && this.store.inWriteTransaction ? ' FOR UPDATE OF t' : '';
    const { rows } = await this.store.query(`${this.#select} WHERE t.id = $1${lock}`, [id]);
    if (!rows[0]) return undefined;
    const row = this.#row(rows[0]);
    if (lock) this.#locked(row);
    if (this.#cache) {
      if (this.#cache.size >= CACHED_ROWS) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(id, { row: Object.freeze(row), until: this.def.cacheSeconds === undefined ? Infinity : performance.now() + this.def.cacheSeconds * 1000 });
      this.store.cached(this.#cache, id);
    }
    return row;
  }

  async find(index: string, key: string): Promise<readonly T[]> {
    const { rows } = await this.store.query(`${this.#select} WHERE ${this.#index(index)} = $1 ORDER BY t.seq, t.id`, [key]);
    return rows.map((r) => this.#row(r));
  }

  async first(index: string, key: string): Promise<T | undefined> {
    const { rows } = await this.store.query(`${this.#select} WHERE ${this.#index(index)} = $1 ORDER BY t.seq, t.id LIMIT 1`, [key]);
    return rows[0] ? this.#row(rows[0]) : undefined;
  }

  async count(index: string, key: string): Promise<number> {
    const { rows } = await this.store.query(`SELECT count(*)::int AS n FROM ${this.def.table} WHERE ${this.#index(index)} = $1`, [key]);
    return rows[0].n;
  }

  async insert(row: T): Promise<T> {
    const inserted = await this.#insert(row, false);
    return inserted!;
  }

  async insertOrGet(row: T): Promise<{ inserted: boolean; row: T }> {
    // A conflicting row deleted before it could be read (pruned, or a claim let go): try again.
    for (;;) {
      const inserted = await this.#insert(row, true);
      if (inserted) return { inserted: true, row: inserted };
      const existing = await this.get(row.id, { forUpdate: true });
      if (existing) return { inserted: false, row: existing };
    }
  }

  /** A field with no column would be dropped without a word: refused, so a new field fails its tests on PostgreSQL instead. */
  #checkFields(fields: object): void {
    for (const name of Object.keys(fields))
      if (!(name in this.def.columns) && name !== '_seq' && !(this.def.attempts && name === 'attempts'))
        throw new Error(`${this.name}.${name} has no column in PostgreSQL: add it to server/store/pg-schema.ts (TABLES and a new migration).`);
  }

  async #insert(row: T, orNothing: boolean): Promise<T | undefined> {
    this.#checkFields(row);
    const names: string[] = [];
    const values: unknown[] = [];
    for (const [name, column] of this.#columns) {
      names.push(quote(name));
      values.push(this.#value(column, (row as Record<string, unknown>)[name]));
    }
    for (const [name, value] of this.#derived(row)) {
      names.push(quote(name));
      values.push(value);
    }
    // Its place in lists: as copied, else the position its id carries, else the shared sequence.
    const seq = (row as { _seq?: number })._seq ?? idPosition(row.id);
    if (seq !== undefined) {
      names.push('seq');
      values.push(seq);
    }
    const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
    const conflict = orNothing ? ' ON CONFLICT (id) DO NOTHING' : '';
    const { rows } = await this.store.query(`INSERT INTO ${this.def.table} AS t (${names.join(', ')}) VALUES (${placeholders})${conflict} RETURNING seq`, values);
    if (!rows[0]) return undefined;
    const attempts = (row as { attempts?: Record<string, unknown>[] }).attempts;
    if (this.def.attempts && attempts?.length) await this.store.query(SAVE_ATTEMPTS(1), [attemptsJson(row.id, attempts)]);
    return this.#locked({ ...row, _seq: rows[0].seq } as T);
  }

  async update(id: string, patch: Partial<T>): Promise<T> {
    this.#checkFields(patch);
    this.#cache?.delete(id);
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [name, column] of this.#columns) {
      if (name === 'id' || !(name in patch)) continue;
      values.push(this.#value(column, (patch as Record<string, unknown>)[name]));
      sets.push(`${quote(name)} = $${values.length}`);
    }
    const attempts = this.def.attempts ? (patch as { attempts?: Record<string, unknown>[] }).attempts : undefined;
    let rows: Record<string, any>[];
    if (attempts && sets.length) {
      // One statement: the attempts upserted, the intent updated; the attempts are the ones just written.
      values.push(attemptsJson(id, attempts));
      ({ rows } = await this.store.query(`WITH saved AS (${SAVE_ATTEMPTS(values.length)}) UPDATE ${this.def.table} t SET ${sets.join(', ')} WHERE id = $1 RETURNING t.*`, values));
      if (rows[0]) rows[0].attempts = JSON.parse(values.at(-1) as string);
    } else {
      if (attempts) await this.store.query(SAVE_ATTEMPTS(1), [attemptsJson(id, attempts)]);
      ({ rows } = sets.length
        ? await this.store.query(`UPDATE ${this.def.table} t SET ${sets.join(', ')} WHERE id = $1 ${this.#returning}`, values)
        : await this.store.query(`${this.#select} WHERE t.id = $1`, [id]));
    }
    if (!rows[0]) throw new Error(`no row ${id}`);
    const after = this.#locked(this.#row(rows[0]));
    const derived = this.#derived(after);
    if (derived.some(([name, value]) => rows[0][name] !== value)) {
      await this.store.query(`UPDATE ${this.def.table} SET ${derived.map(([name], i) => `${quote(name)} = $${i + 2}`).join(', ')} WHERE id = $1`, [
        id,
        ...derived.map(([, value]) => value),
      ]);
    }
    return after;
  }

  async delete(id: string): Promise<boolean> {
    this.store.lockedRows?.delete(`${this.def.table}:${id}`);
    this.#cache?.delete(id);
    const { rows } = await this.store.query(`DELETE FROM ${this.def.table} t WHERE id = $1 RETURNING *`, [id]);
    if (!rows[0]) return false;
    if (this.def.paged && isUnpositionedId(id)) {
      const row = this.#row(rows[0]);
      const lists: Record<string, string> = {};
      for (const [index, keyOf] of Object.entries(this.indexes)) {
        const key = keyOf(row);
        if (typeof key === 'string') lists[index] = key;
      }
      await this.store.query(`INSERT INTO tombstones (id, collection, seq, lists) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`, [id, this.name, rows[0].seq, JSON.stringify(lists)]);
    }
    return true;
  }

  async page(index: string, key: string, query: PageQuery, cursorList?: CursorList, filter?: RowFilter): Promise<Page<T>> {
    const column = this.#index(index);
    const limit = query.limit;
    const list = cursorList ?? { index, key };
    const values: unknown[] = [key];
    const conditions = await this.#filter(query.range, filter, values);
    // A range no row lies in (see #range).
    if (conditions === undefined) return { data: [], hasMore: false };
    const where = [`${column} = $1`, ...conditions];
    const older = query.endingBefore === undefined;
    const cursorId = older ? query.startingAfter : query.endingBefore;
    if (cursorId !== undefined) {
      const cursor = await this.#cursor(list, older ? 'starting_after' : 'ending_before', cursorId);
      values.push(cursor.seq, cursor.id);
      where.push(`(t.seq, t.id) ${older ? '<' : '>'} ($${values.length - 1}, $${values.length})`);
    }
    values.push(limit + 1);
    const order = older ? 'DESC' : 'ASC';
    const take = `ORDER BY t.seq ${order}, t.id ${order} LIMIT $${values.length}`;
    const among = filter?.among;
    // Several lists of one index (several statuses): each walked on its own index, a page's worth
    // each, then merged; as one WHERE of `= ANY`, the planner would read the whole stretch of the
    // page's list (a bitmap of the merchant's rows, sorted) to keep a few.
    const text = among?.length
      ? `SELECT * FROM (${among
          .map((other) => `(${this.#select} WHERE ${this.#index(other.index)} = $${values.push(other.key)} AND ${where.join(' AND ')} ${take})`)
          .join(' UNION ALL ')}) t ${take}`
      : `${this.#select} WHERE ${where.join(' AND ')} ${take}`;
    const { rows } = await this.store.query(text, values, { planEach: query.range !== undefined || filter !== undefined });
    const data = rows.slice(0, limit).map((r) => this.#row(r));
    return { data: older ? data : data.reverse(), hasMore: rows.length > limit };
  }

  /**
   * A page's range and RowFilter as conditions of a WHERE, their values appended to `values` (fields
   * must be columns); undefined when the range holds no row at all.
   */
  async #filter(range: PageQuery['range'], filter: RowFilter | undefined, values: unknown[]): Promise<string[] | undefined> {
    const field = (name: string) => {
      if (!(name in this.def.columns)) throw new Error(`${this.name}.${name} is not a column to filter on`);
      return `t.${quote(name)}`;
    };
    const param = (value: unknown) => `$${values.push(value)}`;
    const bounds = await this.#range(range, field, param);
    if (bounds === undefined) return undefined;
    return [
      ...bounds,
      ...Object.entries(filter?.oneOf ?? {}).map(([name, oneOf]) => `${field(name)} = ANY(${param(oneOf)}::text[])`),
      // jsonb containment: served by the column's GIN index (jsonb_path_ops), see pg-schema.ts.
      ...Object.entries(filter?.holds ?? {}).map(([name, pairs]) => `${field(name)} @> ${param(JSON.stringify(pairs))}::jsonb`),
    ];
  }

  /**
   * A range's conditions. On a column that grows with seq (TableDef.grows: a creation time), the
   * range is first found as a stretch of seq, the first and last rows of the range by (column, seq)
   * (one query on the column's own index), so that the page reads only that stretch of its list,
   * newest first, however far back it lies. The stretch is given as values, so the page's plan
   * knows how many rows it holds; the column's own conditions stay, as a check of each row
   * written `(…) IS NOT FALSE`: not an index condition (the column's index would hand the rows
   * over unordered, to be sorted) and not a second, correlated range that would make the planner
   * believe the stretch holds a handful of rows. Undefined when no row lies in the range.
   */
  async #range(range: PageQuery['range'], field: (name: string) => string, param: (value: unknown) => string): Promise<string[] | undefined> {
    if (!range) return [];
    const { gte, lte } = range;
    if (!this.def.grows?.includes(range.field)) {
      const conditions: string[] = [];
      if (gte !== undefined) conditions.push(`${field(range.field)} >= ${param(gte)}`);
      if (lte !== undefined) conditions.push(`${field(range.field)} <= ${param(lte)}`);
      return conditions;
    }
    const column = quote(range.field);
    const given = [gte, lte].filter((bound) => bound !== undefined);
    const first = gte === undefined ? 'NULL' : `(SELECT seq FROM ${this.def.table} WHERE ${column} >= $1 ORDER BY ${column}, seq LIMIT 1)`;
    const last = lte === undefined ? 'NULL' : `(SELECT seq FROM ${this.def.table} WHERE ${column} <= $${given.length} ORDER BY ${column} DESC, seq DESC LIMIT 1)`;
    const { rows } = await this.store.query(`SELECT ${first}::bigint AS first, ${last}::bigint AS last`, given);
    const { first: from, last: to } = rows[0] as { first: number | null; last: number | null };
    if ((gte !== undefined && from === null) || (lte !== undefined && to === null) || (from !== null && to !== null && from > to)) return undefined;
    const conditions: string[] = [];
    if (from !== null) conditions.push(`t.seq >= ${param(from)}`, `(${field(range.field)} >= ${param(gte)}) IS NOT FALSE`);
    if (to !== null) conditions.push(`t.seq <= ${param(to)}`, `(${field(range.field)} <= ${param(lte)}) IS NOT FALSE`);
    return conditions;
  }

  /**
   * A cursor's place, as (seq, id): the position its id carries (no row needed); for an id without
   * one, its row's, live or deleted (a tombstone), of the list; CursorNotFound otherwise.
   */
  async #cursor(list: CursorList, param: 'starting_after' | 'ending_before', id: string): Promise<{ seq: number; id: string }> {
    const position = idPosition(id);
    if (position !== undefined) return { seq: position, id };
    const row = await this.get(id);
    if (row !== undefined) {
      if (hasKey(this.indexes[list.index]?.(row), list.key)) return { seq: (row as unknown as { _seq: number })._seq, id };
    } else if (this.def.paged) {
      const { rows } = await this.store.query(`SELECT seq, lists FROM tombstones WHERE id = $1 AND collection = $2`, [id, this.name]);
      if (rows[0]?.lists[list.index] === list.key) return { seq: rows[0].seq, id };
    }
    throw new CursorNotFound(param, id);
  }

  async all(): Promise<T[]> {
    const { rows } = await this.store.query(`${this.#select} ORDER BY t.seq, t.id`);
    return rows.map((r) => this.#row(r));
  }

  async deleteExpired(now: number): Promise<number> {
    const column = this.#index('expiry');
    const result = await this.store.query(`DELETE FROM ${this.def.table} WHERE ${column} < $1`, [Math.floor(now / HOUR)]);
    return result.rowCount ?? 0;
  }
}
