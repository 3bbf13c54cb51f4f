import { open } from 'node:fs/promises';
import type { LogData } from './log-records.ts';
import { builderOf, rowOf, type Shape } from './row-builders.ts';

/** Bytes read at a time when a snapshot is loaded: the event loop answers (503, starting) between chunks. */
const READ_CHUNK = 8 << 20;

/**
 * Reads a snapshot: a header line, then rows, then a trailer with the row count. A row line is
 * `name<TAB>json`: in version 3 the json is `[shape, ...values]` and a shape line (no tab) names the
 * collection and keys of that shape before its first row; in version 2 it is the row object itself.
 * Read in large chunks split at newlines (a newline byte never occurs inside a UTF-8 character), with
 * the event loop free between chunks.
 */
export async function readSnapshot(file: string): Promise<LogData> {
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
