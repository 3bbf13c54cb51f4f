import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LEGACY_FILE, logFileName, logNumbers } from './folder-files.ts';
import type { LogData } from './log-records.ts';
import { SNAPSHOT_VERSION, writeSnapshot } from './snapshot-writer.ts';

/** Below this a log is never compacted: rewriting the snapshot would cost more than replaying it. */
export const MIN_COMPACT_BYTES = 1 << 20;

/** Whether the log has outgrown the live data (and the floor), so a new snapshot costs less than replaying it. */
export const shouldCompact = (logBytes: number, snapshotBytes: number, minCompactBytes: number) => logBytes > Math.max(minCompactBytes, snapshotBytes);

/** A compaction's rows, taken synchronously at the switch of logs. */
export interface SnapshotContent {
  header: { version: number; log: number; seq: number };
  rows: [string, object][];
}

/**
 * The content of a snapshot of `data` that includes every log below `next`. Stored rows are frozen:
 * the references taken now are the state at this instant, whatever changes follow.
 */
export function takeSnapshot(data: LogData, next: number): SnapshotContent {
  const rows: [string, object][] = [];
  for (const [name, table] of Object.entries(data.collections)) for (const row of table.values()) rows.push([name, row]);
  return { header: { version: SNAPSHOT_VERSION, log: next, seq: data.seq }, rows };
}

/**
 * Writes the snapshot durably, then removes what it replaces: the legacy JSON and every log it
 * includes. Until the rename, the old snapshot and the logs still hold every acknowledged commit.
 * Returns the snapshot's bytes.
 */
export async function compactFolder(dir: string, { header, rows }: SnapshotContent): Promise<number> {
  const bytes = await writeSnapshot(dir, header, rows);
  rmSync(join(dir, LEGACY_FILE), { force: true });
  for (const n of logNumbers(dir)) if (n < header.log) rmSync(join(dir, logFileName(n)), { force: true });
  return bytes;
}
