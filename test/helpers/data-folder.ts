import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppendLog, type LogData } from '../../server/store/append-log.ts';

/** What a data folder holds, as the service would load it on start (snapshot plus log replay). */
export async function readDataFolder(dir: string): Promise<LogData> {
  const log = new AppendLog(dir);
  const data = await log.read();
  await log.close();
  if (!data) throw new Error(`no database in ${dir}`);
  return data;
}

/** The raw text of every database file of a folder (snapshot and logs), for leak checks. */
export const rawDatabaseText = (dir: string): string =>
  readdirSync(dir)
    .filter((name) => name === 'cpe.snapshot' || name === 'cpe.json' || /^cpe\.\d+\.log$/.test(name))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
