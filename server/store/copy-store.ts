import type { Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services.ts';
import { EmbeddedStore } from './embedded-store.ts';
import { openStore } from './open-store.ts';
import { TABLES } from './pg-schema.ts';
import type { PgStore } from './pg-store.ts';
import type { IndexSpec, Row, Store } from './store.ts';
import { idPosition } from '../identity/ids.ts';

/** Every collection CPE keeps, in an order where each row's references come before it. */
export const COLLECTIONS = Object.keys(TABLES);

/** Listed collections, whose deleted rows without a position are kept as cursors (embedded: `<name>.deleted_cursors`; PostgreSQL: tombstones). */
const LISTED = COLLECTIONS.filter((name) => TABLES[name].paged);

interface DeletedCursorRow {
  id: string;
  position: number;
  lists: Record<string, string>;
  _seq?: number;
}

async function readDeletedCursors(store: Store): Promise<Map<string, DeletedCursorRow[]>> {
  const found = new Map<string, DeletedCursorRow[]>();
  if (store instanceof EmbeddedStore) {
    for (const name of LISTED) found.set(name, [...store.memory<DeletedCursorRow & Row>(`${name}.deleted_cursors`).all()]);
  } else {
    const { rows } = await (store as PgStore).query('SELECT id, collection, seq, lists, record_seq FROM tombstones ORDER BY seq, id');
    for (const name of LISTED) found.set(name, []);
    for (const r of rows) found.get(r.collection)?.push({ id: r.id, position: r.seq, lists: r.lists, ...(r.record_seq === null ? {} : { _seq: r.record_seq }) });
  }
  return found;
}

type Where = Pick<Config, 'databaseUrl' | 'dataDir'>;

/** A store opened with every service's collections (and so their index keys) declared. */
async function openWithServices(where: Where): Promise<{ store: Store; indexes: (name: string) => IndexSpec<any> }> {
  const indexes = new Map<string, IndexSpec<any>>();
  const store = await openStore(where);
  const declaring = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'collection')
        return (name: string, spec: IndexSpec<any> = {}) => {
          if (Object.keys(spec).length) indexes.set(name, spec);
          return target.collection(name, spec);
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  createServices(declaring, createLogger({ level: 'silent' }), { port: 0, demoPort: 0, publicUrl: 'http://localhost', rateLimit: { perSecond: 0, burst: 0 }, log: { level: 'silent' }, ...where });
  return { store, indexes: (name) => indexes.get(name) ?? {} };
}

/**
 * Copies every row of one store into another, empty one, keeping ids and list order (each row's
 * sequence number): an embedded data folder into a PostgreSQL database or back. The target is
 * written in one transaction (PostgreSQL) or one commit (embedded). Returns the rows copied per collection.
 */
export async function copyStore(from: Where, to: Where): Promise<Record<string, number>> {
  const source = await openWithServices(from);
  const target = await openWithServices(to);
  try {
    const copied: Record<string, number> = {};
    const rows = new Map<string, (Row & { _seq: number })[]>();
    for (const name of COLLECTIONS) rows.set(name, (await source.store.collection(name, source.indexes(name)).all()) as (Row & { _seq: number })[]);
    const deleted = await readDeletedCursors(source.store);
    for (const name of COLLECTIONS) {
      if ((await target.store.collection(name, target.indexes(name)).all()).length)
        throw new Error(`The target already holds ${name}: copy into an empty database (a new CPE_DATA_DIR, or a new PostgreSQL database).`);
    }
    if (target.store instanceof EmbeddedStore) {
      for (const name of COLLECTIONS) target.store.restore(name, target.indexes(name), rows.get(name)!);
      for (const name of LISTED) {
        const records = deleted.get(name)!;
        const kept = records.filter((r) => r._seq !== undefined) as (DeletedCursorRow & Row & { _seq: number })[];
        target.store.restore(`${name}.deleted_cursors`, {}, kept);
        for (const { _seq: _, ...record } of records.filter((r) => r._seq === undefined)) target.store.memory<DeletedCursorRow & Row>(`${name}.deleted_cursors`).insert(record);
      }
      await target.store.commit();
    } else {
      const pg = target.store as PgStore;
      await pg.transaction(async () => {
        for (const name of COLLECTIONS) {
          const collection = pg.collection(name, target.indexes(name));
          for (const row of rows.get(name)!) await collection.insert(row);
        }
        for (const name of LISTED)
          for (const r of deleted.get(name)!)
            await pg.query('INSERT INTO tombstones (id, collection, seq, lists, record_seq) VALUES ($1, $2, $3, $4, $5)', [r.id, name, r.position, JSON.stringify(r.lists), r._seq ?? null]);
        // The shared sequence goes on above every row copied that has no position of its own.
        const counters = [...rows.values()].flat().filter((row) => idPosition(row.id) === undefined).map((row) => row._seq);
        if (counters.length) await pg.query(`SELECT setval('cpe_seq', GREATEST($1, (SELECT last_value FROM cpe_seq)))`, [Math.max(...counters)]);
      });
    }
    for (const name of COLLECTIONS) copied[name] = rows.get(name)!.length;
    return copied;
  } finally {
    await source.store.close();
    await target.store.close();
  }
}
