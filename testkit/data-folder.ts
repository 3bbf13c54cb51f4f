import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog, type LogData } from '../server/store/embedded/append-log.ts';

/** A loaded database with each collection's rows as a plain object by id (the store keeps Maps). */
export interface FolderData extends Omit<LogData, 'collections'> {
  collections: Record<string, Record<string, any>>;
}

/** What a data folder holds, as the service would load it on start (snapshot plus log replay). */
export async function readDataFolder(dir: string): Promise<FolderData> {
  const log = new AppendLog(dir);
  const data = await log.read();
  await log.close();
  if (!data) throw new Error(`no database in ${dir}`);
  return { ...data, collections: Object.fromEntries(Object.entries(data.collections).map(([name, rows]) => [name, Object.fromEntries(rows)])) };
}

/** The raw text of every database file of a folder (snapshot and logs), for leak checks. */
export const rawDatabaseText = (dir: string): string =>
  readdirSync(dir)
    .filter((name) => name === 'cpe.snapshot' || name === 'cpe.json' || /^cpe\.\d+\.log$/.test(name))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');

/** A new empty folder under the system's temporary folder, for a service's data. */
export const tempDataDir = () => mkdtempSync(join(tmpdir(), 'cpe-test-'));
