import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { SNAPSHOT_FILE, syncFolder } from './folder-files.ts';

/** The snapshot format written now (3: rows as arrays of values after a shape line); 2 is still read (snapshot-reader.ts). */
export const SNAPSHOT_VERSION = 3;

/** Rows per batch when a snapshot is written: the event loop serves requests between batches. */
const SNAPSHOT_BATCH = 5_000;

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * Writes a snapshot durably (temporary file, fdatasync, rename, folder fsync), a batch of rows at a
 * time; its size in bytes. Each row is `name<TAB>[shape, ...values]`, its keys written once per
 * shape: half the bytes of one object per row, and much less to parse on start.
 */
export async function writeSnapshot(dir: string, header: { version: number; log: number; seq: number }, rows: [string, object][]): Promise<number> {
  const temp = join(dir, `.${SNAPSHOT_FILE}.tmp`);
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
  await rename(temp, join(dir, SNAPSHOT_FILE));
  syncFolder(dir);
  return bytes;
}
