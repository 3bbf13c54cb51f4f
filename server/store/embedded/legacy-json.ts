import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEGACY_FILE } from './folder-files.ts';
import type { LogData } from './log-records.ts';

/**
 * Reads the single JSON file of a folder from before the log (`cpe.json`: collections as objects by
 * id). The store then writes it as a snapshot at once, which removes it: it is read only once.
 */
export function readLegacyJson(dir: string): LogData {
  const legacy = JSON.parse(readFileSync(join(dir, LEGACY_FILE), 'utf8')) as { seq: number; collections: Record<string, Record<string, unknown>> };
  const collections: LogData['collections'] = {};
  for (const [name, rows] of Object.entries(legacy.collections ?? {})) collections[name] = new Map(Object.entries(rows));
  return { version: 1, seq: legacy.seq ?? 0, collections };
}
