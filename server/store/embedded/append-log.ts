import { existsSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { compactFolder, MIN_COMPACT_BYTES, shouldCompact, takeSnapshot } from './compaction.ts';
import { logFileName, syncFolder } from './folder-files.ts';
import { encodeRecord, type LogData, type LogRecord } from './log-records.ts';
import { recoverFolder } from './recovery.ts';

export type { LogData } from './log-records.ts';

/**
 * A lowdb adapter whose durable write costs what the commit changed, not what the database holds.
 * Each group commit appends its changed and deleted rows to a log (`cpe.NNNNNN.log`, one checksummed
 * line per commit: log-records.ts) and fdatasyncs it before the answer leaves. When the log outgrows
 * the live data, a compaction (compaction.ts) starts a new log and writes a snapshot (`cpe.snapshot`:
 * snapshot-writer.ts) in batches in the background; once it is durable, the logs it includes go.
 *
 * Crash safety: the snapshot is replaced by rename (always a whole old or a whole new one, checked by
 * its trailer) and names the first log it does not include, so at every instant the snapshot plus the
 * logs from that number hold every acknowledged commit; a record is acknowledged only after its
 * fdatasync, and a torn last record fails its checksum and is cut off on start (recovery.ts). Records
 * set whole rows, so replaying one the snapshot already holds changes nothing. Line by line, so no
 * file is ever one giant string. A folder from before the log (`cpe.json` alone) is read once and
 * migrated (legacy-json.ts).
 *
 * It relies on what IndexedCollection guarantees: every change goes through insert/update/delete,
 * which call `changed()`, and stored rows are frozen (a snapshot copies references, not rows).
 */
export class AppendLog implements Adapter<LogData> {
  readonly #dir: string;
  #dirty = new Map<string, Set<string>>();
  #log = 0;
  #handle: FileHandle | undefined;
  #logBytes = 0;
  #snapshotBytes = 0;
  #compaction: Promise<void> | undefined;
  /** How many compactions finished (for tests and the storage benchmark). */
  compactions = 0;
  /** Records cut off at start because they were torn or damaged. */
  discarded = 0;
  /** True when read() found a folder from before the log: the store compacts at once to migrate it. */
  migrating = false;

  constructor(
    dir: string,
    private readonly minCompactBytes = MIN_COMPACT_BYTES,
  ) {
    this.#dir = dir;
  }

  changed(collection: string, id: string): void {
    let ids = this.#dirty.get(collection);
    if (!ids) this.#dirty.set(collection, (ids = new Set()));
    ids.add(id);
  }

  async read(): Promise<LogData | null> {
    const recovered = await recoverFolder(this.#dir);
    this.#log = recovered.log;
    this.#logBytes = recovered.logBytes;
    this.#snapshotBytes = recovered.snapshotBytes;
    this.discarded += recovered.discarded;
    this.migrating = recovered.migrating;
    return recovered.data;
  }

  async write(data: LogData): Promise<void> {
    // Captured now (synchronously): later changes go into the next record.
    const record: LogRecord = { s: data.seq, c: {} };
    for (const [name, ids] of this.#dirty) {
      const rows = data.collections[name];
      const changes: Record<string, unknown> = (record.c[name] = {});
      for (const id of ids) changes[id] = rows?.get(id) ?? null;
    }
    this.#dirty = new Map();
    const bytes = encodeRecord(record);
    const handle = await this.#open();
    await handle.write(bytes, 0, bytes.length, null);
    await handle.datasync();
    this.#logBytes += bytes.length;
    if (!this.#compaction && shouldCompact(this.#logBytes, this.#snapshotBytes, this.minCompactBytes)) this.#compaction = this.#compact(data);
  }

  /** Waits for a compaction under way, and closes the log. */
  async close(): Promise<void> {
    await this.#compaction;
    await this.#handle?.close();
    this.#handle = undefined;
  }

  /** Compacts now (tests and the benchmark), after any compaction under way. */
  async compact(data: LogData): Promise<void> {
    await this.#compaction;
    this.#compaction = this.#compact(data);
    await this.#compaction;
  }

  async #open(): Promise<FileHandle> {
    if (this.#handle) return this.#handle;
    const path = join(this.#dir, logFileName(this.#log));
    const created = !existsSync(path);
    this.#handle = await open(path, 'a', 0o600);
    // A new file's name must be durable too, or a crash could lose the whole log.
    if (created) syncFolder(this.#dir);
    return this.#handle;
  }

  async #compact(data: LogData): Promise<void> {
    try {
      // Switch logs first: from here every commit goes to the next log, which the snapshot does not
      // include, so the snapshot may be taken at any moment after (rows are set whole on replay).
      // All synchronous up to the first await, so no commit can slip between the switch and the copy.
      const next = this.#log + 1;
      const previous = this.#handle;
      this.#handle = undefined;
      this.#log = next;
      this.#logBytes = 0;
      data.log = next;
      const content = takeSnapshot(data, next);
      await previous?.close();
      this.#snapshotBytes = await compactFolder(this.#dir, content);
      this.migrating = false;
      this.compactions++;
    } finally {
      this.#compaction = undefined;
    }
  }

  /** Bytes of the current log and of the snapshot (the storage benchmark reports them). */
  sizes(): { log: number; snapshot: number } {
    return { log: this.#logBytes, snapshot: this.#snapshotBytes };
  }
}
