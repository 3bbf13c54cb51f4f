import { closeSync, existsSync, ftruncateSync, fsyncSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LEGACY_FILE, logFileName, logNumbers, SNAPSHOT_FILE } from './folder-files.ts';
import { readLegacyJson } from './legacy-json.ts';
import { applyRecord, decodeRecord, type LogData } from './log-records.ts';
import { readSnapshot } from './snapshot-reader.ts';

/** What a data folder held on start, and where appending goes on from. */
export interface Recovered {
  /** The database (null: an empty folder). */
  data: LogData | null;
  /** The number of the log to append to. */
  log: number;
  /** Bytes already in that log. */
  logBytes: number;
  /** Bytes of the snapshot read (0: none). */
  snapshotBytes: number;
  /** Records cut off because they were torn or damaged. */
  discarded: number;
  /** True when the folder is from before the log (`cpe.json` alone): it is to be written as a snapshot at once. */
  migrating: boolean;
}

/**
 * Reads a data folder as it was left, even by a kill -9: the snapshot (or the legacy JSON of a
 * folder from before the log), then every log from the first the snapshot does not include,
 * replayed a record at a time. A torn or damaged record (one whose checksum fails) was never
 * acknowledged, or cannot be trusted: the log is cut off before it and any later log dropped.
 * Logs the snapshot includes, left over from a compaction cut short, are removed.
 */
export async function recoverFolder(dir: string): Promise<Recovered> {
  const recovered: Recovered = { data: null, log: 0, logBytes: 0, snapshotBytes: 0, discarded: 0, migrating: false };
  const snapshotFile = join(dir, SNAPSHOT_FILE);
  if (existsSync(snapshotFile)) {
    recovered.data = await readSnapshot(snapshotFile);
    recovered.snapshotBytes = statSync(snapshotFile).size;
    rmSync(join(dir, LEGACY_FILE), { force: true });
  } else if (existsSync(join(dir, LEGACY_FILE))) {
    recovered.data = readLegacyJson(dir);
    recovered.migrating = true;
  }
  const first = recovered.data?.log ?? 0;
  const logs = logNumbers(dir);
  // Logs the snapshot includes are left over from a compaction cut short: they are not needed.
  for (const n of logs.filter((n) => n < first)) rmSync(join(dir, logFileName(n)), { force: true });
  const live = logs.filter((n) => n >= first);
  for (const [i, n] of live.entries()) {
    const file = join(dir, logFileName(n));
    const bytes = readFileSync(file);
    let offset = 0;
    while (offset < bytes.length) {
      const end = bytes.indexOf(10, offset);
      const record = end < 0 ? undefined : decodeRecord(bytes.toString('utf8', offset, end));
      if (!record) break;
      recovered.data ??= { version: 1, seq: 0, collections: {} };
      applyRecord(recovered.data, record);
      offset = end + 1;
    }
    if (offset < bytes.length) {
      // A torn (or damaged) tail: what follows was never acknowledged, or cannot be trusted.
      recovered.discarded++;
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, offset);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      // Later logs would come after a gap: drop them too (only the last log is ever being written).
      for (const later of live.slice(i + 1)) rmSync(join(dir, logFileName(later)), { force: true });
      recovered.log = n;
      recovered.logBytes = offset;
      break;
    }
    recovered.log = n;
    recovered.logBytes = bytes.length;
  }
  if (!live.length) recovered.log = first;
  if (recovered.data) recovered.data.log = first;
  return recovered;
}
