import { closeSync, existsSync, ftruncateSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Adapter } from 'lowdb';

/**
 * The lowdb document; `log` names the first log the snapshot it was read from does not include.
 * Each collection's rows are a Map by id: a plain object with a million keys turns every id into a
 * property name (interned, in a dictionary), which costs several times what a Map does on start.
 */
export interface LogData {
  version: 1;
  seq: number;
  /** Logs numbered below this are in the snapshot already (absent in a folder from before the log: 0). */
  log?: number;
  collections: Record<string, Map<string, any>>;
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

/** Bytes read at a time when a snapshot is loaded: the event loop answers (503, starting) between chunks. */
const READ_CHUNK = 8 << 20;

/** The snapshot format written now (3: rows as arrays of values after a shape line); 2 is still read. */
const SNAPSHOT_VERSION = 3;

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
 * row, a trailer; see readSnapshot) in batches in the background; once it is durable, the logs it includes go.
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
      const legacy = JSON.parse(readFileSync(join(this.#dir, LEGACY), 'utf8')) as { seq: number; collections: Record<string, Record<string, unknown>> };
      const collections: LogData['collections'] = {};
      for (const [name, rows] of Object.entries(legacy.collections ?? {})) collections[name] = new Map(Object.entries(rows));
      data = { version: 1, seq: legacy.seq ?? 0, collections };
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
      const rows = data.collections[name];
      const changes: Record<string, unknown> = (record.c[name] = {});
      for (const id of ids) changes[id] = rows?.get(id) ?? null;
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
      const rows: [string, object][] = [];
      for (const [name, table] of Object.entries(data.collections)) for (const row of table.values()) rows.push([name, row]);
      const header = { version: SNAPSHOT_VERSION, log: next, seq: data.seq };
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
    const rows = (data.collections[name] ??= new Map());
    for (const [id, row] of Object.entries(changes)) {
      if (row === null) rows.delete(id);
      else rows.set(id, row);
    }
  }
}

/** A row shape of a version 3 snapshot: the collection and the keys, in order, of the rows written with it. */
interface Shape {
  collection: Map<string, any>;
  /** Builds a row from `[shape, ...values]`. */
  make: (values: unknown[]) => { id: string };
  /** The previous row's values: a string equal to the one above it is shared rather than kept twice. */
  last: unknown[] | undefined;
}

/**
 * The row builder of a shape: one object literal with the shape's keys in order, so every row of the
 * shape has the same hidden class with its fields inside the object (two million rows cost two million
 * objects, not four, and seconds less on start). The keys are JSON string literals, safe in source;
 * `__proto__` (never a field of ours) would set the prototype in a literal, so such a shape is built by
 * defining each property, as JSON.parse makes it.
 */
function builderOf(keys: string[]): Shape['make'] {
  if (keys.includes('__proto__')) {
    return (values) => {
      const row = {};
      for (let i = 0; i < keys.length; i++) Object.defineProperty(row, keys[i], { value: values[i + 1], enumerable: true, writable: true, configurable: true });
      return row as { id: string };
    };
  }
  return new Function('v', `return {${keys.map((key, i) => `${JSON.stringify(key)}: v[${i + 1}]`).join(', ')}};`) as Shape['make'];
}

function rowOf(shape: Shape, values: unknown[]): { id: string } {
  const last = shape.last;
  if (last !== undefined) {
    for (let i = 1; i < values.length; i++) if (typeof values[i] === 'string' && values[i] === last[i]) values[i] = last[i];
  }
  shape.last = values;
  return shape.make(values);
}

/**
 * Reads a snapshot: a header line, then rows, then a trailer with the row count. A row line is
 * `name<TAB>json`: in version 3 the json is `[shape, ...values]` and a shape line (no tab) names the
 * collection and keys of that shape before its first row; in version 2 it is the row object itself.
 * Read in large chunks split at newlines (a newline byte never occurs inside a UTF-8 character), with
 * the event loop free between chunks.
 */
async function readSnapshot(file: string): Promise<LogData> {
  type Header = { version: number; log: number; seq: number };
  let header: Header | undefined;
  let trailer: { rows: number } | undefined;
  let count = 0;
  const collections: LogData['collections'] = {};
  const shapes: Shape[] = [];
  const line = (text: string, start: number, end: number) => {
    const tab = text.indexOf('\t', start);
    if (tab < 0 || tab >= end) {
      const meta = JSON.parse(text.slice(start, end)) as { version?: number; log?: number; seq?: number; shape?: number; collection?: string; keys?: string[]; rows?: number };
      if (!header) header = meta as Header;
      else if (meta.shape !== undefined) shapes[meta.shape] = { collection: (collections[meta.collection!] ??= new Map()), make: builderOf(meta.keys!), last: undefined };
      else trailer = meta as { rows: number };
      return;
    }
    const json = text.slice(tab + 1, end);
    if (json.charCodeAt(0) === 91 /* [ */) {
      const values = JSON.parse(json) as unknown[];
      const shape = shapes[values[0] as number];
      const row = rowOf(shape, values);
      shape.collection.set(row.id, row);
    } else {
      const row = JSON.parse(json) as { id: string };
      (collections[text.slice(start, tab)] ??= new Map()).set(row.id, row);
    }
    count++;
  };
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    let carry = Buffer.alloc(0);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      const bytes = carry.length ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      const last = bytesRead === 0 ? bytes.length - 1 : bytes.lastIndexOf(10);
      const text = bytes.toString('utf8', 0, last + 1);
      for (let start = 0; start < text.length; ) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        if (end > start) line(text, start, end);
        start = end + 1;
      }
      carry = Buffer.from(bytes.subarray(last + 1));
      if (bytesRead === 0) break;
    }
  } finally {
    await handle.close();
  }
  // Written to a temporary file and renamed only once whole, a snapshot is never partial: if it is, say so.
  if (!header || trailer?.rows !== count) throw new Error(`${file} is incomplete (${count} rows, trailer ${JSON.stringify(trailer)}).`);
  return { version: 1, seq: header.seq, log: header.log, collections };
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * Writes a snapshot durably (temporary file, fdatasync, rename, folder fsync), a batch of rows at a
 * time. Each row is `name<TAB>[shape, ...values]`, its keys written once per shape: half the bytes of
 * one object per row, and much less to parse on start.
 */
async function writeSnapshot(dir: string, header: object, rows: [string, object][]): Promise<number> {
  const temp = join(dir, `.${SNAPSHOT}.tmp`);
  const file = await open(temp, 'w', 0o600);
  const shapes = new Map<string, number>();
  /** The previous row's collection, keys and shape: consecutive rows of a collection mostly share them. */
  let previous: { name: string; keys: string[]; shape: number } | undefined;
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
      for (const [name, row] of rows.slice(i, i + SNAPSHOT_BATCH)) {
        // A field set to undefined is left out, as JSON.stringify leaves it out of an object.
        const keys: string[] = [];
        const values: unknown[] = [0];
        for (const [key, value] of Object.entries(row)) {
          if (value === undefined) continue;
          keys.push(key);
          values.push(value);
        }
        let shape: number;
        if (previous !== undefined && previous.name === name && sameKeys(previous.keys, keys)) shape = previous.shape;
        else {
          const signature = `${name}\t${keys.join('\t')}`;
          let known = shapes.get(signature);
          if (known === undefined) {
            shapes.set(signature, (known = shapes.size));
            text += `${JSON.stringify({ shape: known, collection: name, keys })}\n`;
          }
          shape = known;
          previous = { name, keys, shape };
        }
        values[0] = shape;
        text += `${name}\t${JSON.stringify(values)}\n`;
      }
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
