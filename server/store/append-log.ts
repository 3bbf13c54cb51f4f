import { closeSync, createReadStream, existsSync, ftruncateSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { crc32 } from 'node:zlib';
import type { Adapter } from 'lowdb';

/** The lowdb document; `log` names the first log the snapshot it was read from does not include. */
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

/** Rows per batch when a snapshot is written: the event loop serves requests between batches. */
const SNAPSHOT_BATCH = 5_000;

const SNAPSHOT = 'cpe.snapshot';
/** The single-JSON file of the versions before the log: read once, then replaced by a snapshot. */
const LEGACY = 'cpe.json';
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
 * A lowdb adapter whose durable write costs what the commit changed, not what the database holds.
 * Each group commit appends its changed and deleted rows to a log (`cpe.NNNNNN.log`, one checksummed
 * line per commit) and fdatasyncs it before the answer leaves. When the log outgrows the live data,
 * a compaction starts a new log and writes a snapshot (`cpe.snapshot`: a header line, one line per
 * row, a trailer) in batches in the background; once it is durable, the logs it includes go.
 *
 * Crash safety: the snapshot is replaced by rename (always a whole old or a whole new one, checked by
 * its trailer) and names the first log it does not include, so at every instant the snapshot plus the
 * logs from that number hold every acknowledged commit; a record is acknowledged only after its
 * fdatasync, and a torn last record fails its checksum and is cut off on start. Records set whole
 * rows, so replaying one the snapshot already holds changes nothing. Line by line, so no file is ever
 * one giant string. A folder from before the log (`cpe.json` alone) is read once and migrated.
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

  changed(collection: string, kind: 'insert' | 'update' | 'delete', id: string): void {
    let ids = this.#dirty.get(collection);
    if (!ids) this.#dirty.set(collection, (ids = new Set()));
    ids.add(id);
  }

  async read(): Promise<LogData | null> {
    let data: LogData | null = null;
    const snapshotFile = join(this.#dir, SNAPSHOT);
    if (existsSync(snapshotFile)) {
      data = await readSnapshot(snapshotFile);
      this.#snapshotBytes = statSync(snapshotFile).size;
      rmSync(join(this.#dir, LEGACY), { force: true });
    } else if (existsSync(join(this.#dir, LEGACY))) {
      data = JSON.parse(readFileSync(join(this.#dir, LEGACY), 'utf8')) as LogData;
      this.migrating = true;
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
      // Stored rows are frozen: references taken now are the state at the switch, whatever follows.
      const rows: [string, unknown][] = [];
      for (const [name, table] of Object.entries(data.collections)) for (const row of Object.values(table)) rows.push([name, row]);
      const header = { version: 2, log: next, seq: data.seq };
      await previous?.close();
      this.#snapshotBytes = await writeSnapshot(this.#dir, header, rows);
      rmSync(join(this.#dir, LEGACY), { force: true });
      this.migrating = false;
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
    return { log: this.#logBytes, snapshot: this.#snapshotBytes };
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

/** Reads a snapshot line by line: header, `name<TAB>row` lines, and a trailer with the row count. */
async function readSnapshot(file: string): Promise<LogData> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let header: { version: number; log: number; seq: number } | undefined;
  let trailer: { rows: number } | undefined;
  let count = 0;
  const collections: LogData['collections'] = {};
  for await (const line of lines) {
    if (!header) {
      header = JSON.parse(line) as { version: number; log: number; seq: number };
      continue;
    }
    const tab = line.indexOf('\t');
    if (tab < 0) {
      trailer = JSON.parse(line) as { rows: number };
      continue;
    }
    const name = line.slice(0, tab);
    const row = JSON.parse(line.slice(tab + 1)) as { id: string };
    (collections[name] ??= {})[row.id] = row;
    count++;
  }
  // Written to a temporary file and renamed only once whole, a snapshot is never partial: if it is, say so.
  if (!header || trailer?.rows !== count) throw new Error(`${file} is incomplete (${count} rows, trailer ${JSON.stringify(trailer)}).`);
  return { version: 1, seq: header.seq, log: header.log, collections };
}

/** Writes a snapshot durably (temporary file, fdatasync, rename, folder fsync), a batch of rows at a time. */
async function writeSnapshot(dir: string, header: object, rows: [string, unknown][]): Promise<number> {
  const temp = join(dir, `.${SNAPSHOT}.tmp`);
  const file = await open(temp, 'w', 0o600);
  let bytes = 0;
  try {
    const write = async (text: string) => {
      const buffer = Buffer.from(text);
      await file.write(buffer, 0, buffer.length, null);
      bytes += buffer.length;
    };
    await write(`${JSON.stringify(header)}\n`);
    for (let i = 0; i < rows.length; i += SNAPSHOT_BATCH) {
      let text = '';
      for (const [name, row] of rows.slice(i, i + SNAPSHOT_BATCH)) text += `${name}\t${JSON.stringify(row)}\n`;
      await write(text);
    }
    await write(`${JSON.stringify({ rows: rows.length })}\n`);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(temp, join(dir, SNAPSHOT));
  syncFolder(dir);
  return bytes;
}
