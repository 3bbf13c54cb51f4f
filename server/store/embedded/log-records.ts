import { crc32 } from 'node:zlib';

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
export interface LogRecord {
  s: number;
  c: Record<string, Record<string, unknown>>;
}

/** `<crc32 hex> <json>\n`: a torn or damaged line fails its checksum and is recognised as such. */
export function encodeRecord(record: LogRecord): Buffer {
  const json = JSON.stringify(record);
  return Buffer.from(`${crc32(json).toString(16).padStart(8, '0')} ${json}\n`);
}

/** The record of one line (without its newline); undefined when torn or damaged. */
export function decodeRecord(line: string): LogRecord | undefined {
  if (line.length < 10 || line[8] !== ' ') return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  try {
    return JSON.parse(json) as LogRecord;
  } catch {
    return undefined;
  }
}

/** Replays a record: it sets whole rows, so replaying one the data already holds changes nothing. */
export function applyRecord(data: LogData, record: LogRecord): void {
  data.seq = Math.max(data.seq, record.s);
  for (const [name, changes] of Object.entries(record.c)) {
    const rows = (data.collections[name] ??= new Map());
    for (const [id, row] of Object.entries(changes)) {
      if (row === null) rows.delete(id);
      else rows.set(id, row);
    }
  }
}
