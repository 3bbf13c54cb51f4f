import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { copyStore } from '../store/copy-store.ts';
import { isPostgresUrl } from '../store/open-store.ts';
import { run } from './service-link.ts';

/**
 * `npm run -s copy-store -- --from <data folder | postgres://…> --to <postgres://… | data folder>`:
 * moves a sandbox between engines. Stop the services of both first; the target must be empty.
 */
await run(async () => {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } });
  if (!values.from || !values.to) throw new Error('Usage: npm run -s copy-store -- --from <data folder | postgres://…> --to <postgres://… | data folder>');
  const where = (value: string) => (isPostgresUrl(value) ? { databaseUrl: value } : { dataDir: resolve(value) });
  return { copied: await copyStore(where(values.from), where(values.to)) };
});
