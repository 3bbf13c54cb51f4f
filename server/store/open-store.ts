import type { Config } from '../config.ts';
import { EmbeddedStore } from './embedded-store.ts';
import type { PgStoreOptions } from './pg-store.ts';
import type { Store } from './store.ts';

/** Whether a URL names a PostgreSQL database (CPE_DATABASE_URL). */
export const isPostgresUrl = (url: string | undefined): boolean => !!url && /^postgres(ql)?:\/\//.test(url);

/** A database URL fit for a log or a banner: its password (if any) replaced by `…`. */
export const withoutPassword = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');

/**
 * The engine the configuration asks for: PostgreSQL when `databaseUrl` is a postgres:// URL (the
 * driver is loaded only then), otherwise the embedded store in `dataDir` (in memory without one).
 */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'databasePool' | 'dataDir' | 'compactMinBytes'>,
  postgres: Pick<PgStoreOptions, 'logger' | 'onWaiting'> = {},
): Promise<Store> {
  if (config.databaseUrl !== undefined && config.databaseUrl !== '') {
    const url: string = config.databaseUrl;
    if (!isPostgresUrl(url)) throw new Error(`CPE_DATABASE_URL must be a postgres:// URL, got '${url.replace(/\/\/[^@/]*@/, '//…@')}'.`);
    const { PgStore } = await import('./pg-store.ts');
    return PgStore.open(url, { poolSize: config.databasePool, database: withoutPassword(url), ...postgres });
  }
  return EmbeddedStore.open(config.dataDir, { minCompactBytes: config.compactMinBytes });
}
