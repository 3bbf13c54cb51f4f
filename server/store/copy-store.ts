import type { Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services.ts';
import { LowdbStore } from './lowdb-store.ts';
import { openStore } from './open-store.ts';
import { TABLES } from './pg-schema.ts';
import type { PgStore } from './pg-store.ts';
import type { IndexSpec, Row, Store } from './store.ts';

/** Every collection CPE keeps, in an order where each row's references come before it. */
export const COLLECTIONS = Object.keys(TABLES);

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
    for (const name of COLLECTIONS) {
      if ((await target.store.collection(name, target.indexes(name)).all()).length)
        throw new Error(`The target already holds ${name}: copy into an empty database (a new CPE_DATA_DIR, or a new PostgreSQL database).`);
    }
    if (target.store instanceof LowdbStore) {
      for (const name of COLLECTIONS) target.store.restore(name, target.indexes(name), rows.get(name)!);
      await target.store.commit();
    } else {
      const pg = target.store as PgStore;
      await pg.transaction(async () => {
        let top = 0;
        for (const name of COLLECTIONS) {
          const collection = pg.collection(name, target.indexes(name));
          for (const row of rows.get(name)!) {
            await collection.insert(row);
            top = Math.max(top, row._seq);
          }
        }
        if (top > 0) await pg.query(`SELECT setval('cpe_seq', GREATEST($1, (SELECT last_value FROM cpe_seq)))`, [top]);
      });
    }
    for (const name of COLLECTIONS) copied[name] = rows.get(name)!.length;
    return copied;
  } finally {
    await source.store.close();
    await target.store.close();
  }
}
