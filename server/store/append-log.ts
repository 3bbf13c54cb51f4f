import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, ftruncateSync, fsyncSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Adapter } from 'lowdb';
import { DocumentText } from './document-text.ts';
import { DurableTextFile } from './durable-text-file.ts';

/** The lowdb document: the snapshot file holds exactly this, `log` naming the first log it does not include. */
export interface LogData {
  version: 1;
  seq: number;
  /** Logs numbered below this are in the snapshot already (absent in a folder from before the log: 0). */
  log?: number;
  collections: Record<string, Record<string, any>>;
}

/** One group commit: the changed rows of each collection (null: deleted), and the row counter. */
interface LogRecord {
  s: number;
  c: Record<string, Record<string, unknown>>;
}

/** Below this a log is never compacted: rewriting the snapshot would cost more than replaying it. */
export const MIN_COMPACT_BYTES = 1 << 20;

const logName = (n: number) => `cpe.${String(n).padStart(6, '0')}.log`;
const LOG_FILE = /^cpe\.(\d{6})\.log$/;

/** `<crc32 hex> <json>\n`: a torn or damaged line fails its checksum and is recognised as such. */
function encode(record: LogRecord): Buffer {
  const json = JSON.stringify(record);
  return Buffer.from(`${crc32(json).toString(16).padStart(8, '0')} ${json}\n`);
}

function decode(line: string): LogRecord | undefined {
  if (line.length < 10 || line[8] !== ' ') return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  try {
    return JSON.parse(json) as LogRecord;
  } catch {
    return undefined;
  }
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A lowdb adapter whose durable write costs what the commit changed, not what the database holds:
 * `cpe.json` is a snapshot (the same document as before, written atomically), and each group commit
 * appends its changed and deleted rows to a log (`cpe.NNNNNN.log`) and fdatasyncs it before the
 * answer leaves. When the log outgrows the live data, a compaction starts a new log and writes a new
 * snapshot in the background; once that snapshot is durable, the logs it includes are deleted.
 *
 * Crash safety: the snapshot is replaced by rename (always a whole old or a whole new document) and
 * names the first log it does not include, so at every instant the snapshot plus the logs from that
 * number hold every acknowledged commit; a record is acknowledged only after its fdatasync, and a
 * torn last record fails its checksum and is cut off on start. Records set whole rows, so replaying
 * one the snapshot already holds changes nothing. A folder from before the log (a `cpe.json` with no
 * `log` field) is read as a snapshot with no logs yet.
 *
 * It relies on what IndexedCollection guarantees: every change goes through insert/update/delete,
 * which call `changed()`, and stored rows are frozen.
 */
export class AppendLog implements Adapter<LogData> {
  readonly #dir: string;
  readonly #snapshot: DurableTextFile;
  readonly #text = new DocumentText();
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

  constructor(
    dir: string,
    private readonly minCompactBytes = MIN_COMPACT_BYTES,
  ) {
    this.#dir = dir;
    this.#snapshot = new DurableTextFile(join(dir, 'cpe.json'));
  }

  changed(collection: string, kind: 'insert' | 'update' | 'delete', id: string): void {
    let ids = this.#dirty.get(collection);
    if (!ids) this.#dirty.set(collection, (ids = new Set()));
    ids.add(id);
    this.#text.changed(collection, kind, id);
  }

  async read(): Promise<LogData | null> {
    const snapshotFile = join(this.#dir, 'cpe.json');
    let data: LogData | null = null;
    if (existsSync(snapshotFile)) {
      const text = readFileSync(snapshotFile, 'utf8');
      this.#snapshotBytes = Buffer.byteLength(text);
      data = JSON.parse(text) as LogData;
    }
    const first = data?.log ?? 0;
    const logs = readdirSync(this.#dir)
      .map((name) => LOG_FILE.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    // Logs the snapshot includes are left over from a compaction cut short: they are not needed.
    for (const n of logs.filter((n) => n < first)) rmSync(join(this.#dir, logName(n)), { force: true });
    const live = logs.filter((n) => n >= first);
    for (const [i, n] of live.entries()) {
      const file = join(this.#dir, logName(n));
      const bytes = readFileSync(file);
      let offset = 0;
      while (offset < bytes.length) {
        const end = bytes.indexOf(10, offset);
        const record = end < 0 ? undefined : decode(bytes.toString('utf8', offset, end));
        if (!record) break;
        data ??= { version: 1, seq: 0, collections: {} };
        apply(data, record);
        offset = end + 1;
      }
      if (offset < bytes.length) {
        // A torn (or damaged) tail: what follows was never acknowledged, or cannot be trusted.
        this.discarded++;
        const fd = openSync(file, 'r+');
        try {
          ftruncateSync(fd, offset);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        // Later logs would come after a gap: drop them too (only the last log is ever being written).
        for (const later of live.slice(i + 1)) rmSync(join(this.#dir, logName(later)), { force: true });
        this.#log = n;
        this.#logBytes = offset;
        break;
      }
      this.#log = n;
      this.#logBytes = bytes.length;
    }
    if (!live.length) this.#log = first;
    if (data) data.log = first;
    return data;
  }

  async write(data: LogData): Promise<void> {
    // Captured now (synchronously): later changes go into the next record.
    const record: LogRecord = { s: data.seq, c: {} };
    for (const [name, ids] of this.#dirty) {
      const rows = data.collections[name] ?? {};
      const changes: Record<string, unknown> = (record.c[name] = {});
      for (const id of ids) changes[id] = Object.hasOwn(rows, id) ? rows[id] : null;
    }
    this.#dirty = new Map();
    const bytes = encode(record);
    const handle = await this.#open();
    await handle.write(bytes, 0, bytes.length, null);
    await handle.datasync();
    this.#logBytes += bytes.length;
    if (!this.#compaction && this.#logBytes > Math.max(this.minCompactBytes, this.#snapshotBytes)) this.#compaction = this.#compact(data);
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
    const path = join(this.#dir, logName(this.#log));
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
      const chunks = this.#text.chunks(data);
      await previous?.close();
      await this.#snapshot.write(chunks);
      this.#snapshotBytes = chunks.reduce((n, c) => n + c.byteLength, 0);
      for (const name of readdirSync(this.#dir)) {
        const m = LOG_FILE.exec(name);
        if (m && Number(m[1]) < next) rmSync(join(this.#dir, name), { force: true });
      }
      this.compactions++;
    } finally {
      this.#compaction = undefined;
    }
  }

  /** Bytes of the current log and of the snapshot (the storage benchmark reports them). */
  sizes(): { log: number; snapshot: number } {
    const snapshotFile = join(this.#dir, 'cpe.json');
    return { log: this.#logBytes, snapshot: existsSync(snapshotFile) ? statSync(snapshotFile).size : 0 };
  }
}

function apply(data: LogData, record: LogRecord): void {
  data.seq = Math.max(data.seq, record.s);
  for (const [name, changes] of Object.entries(record.c)) {
    const rows = (data.collections[name] ??= {});
    for (const [id, row] of Object.entries(changes)) {
      if (row === null) delete rows[id];
      else rows[id] = row;
    }
  }
}
