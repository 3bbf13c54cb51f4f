import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/**
 * A lowdb adapter that makes a finished write survive a crash: the text goes to a temporary file,
 * which is flushed to disk and then renamed over the old one (and the folder is flushed so the
 * rename itself is durable). The file is therefore always either the old or the new whole text,
 * even after `kill -9` or a power cut. lowdb's own TextFile renames without flushing.
 */
export class DurableTextFile implements Adapter<string> {
  readonly #temp: string;

  constructor(readonly filename: string) {
    this.#temp = join(dirname(filename), `.${basename(filename)}.tmp`);
  }

  async read(): Promise<string | null> {
    try {
      return await readFile(this.filename, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Replaces the file's content with `text`, or with the concatenation of byte `chunks`. */
  async write(text: string | readonly Uint8Array[]): Promise<void> {
    const file = await open(this.#temp, 'w', 0o600);
    try {
      if (typeof text === 'string') await file.writeFile(text, 'utf8');
      else await writeAll(file, text);
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(this.#temp, this.filename);
    const folder = await open(dirname(this.filename), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}

/** Writes every chunk in order from the start of the file, in one writev when the OS allows. */
async function writeAll(file: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let rest = chunks.filter((chunk) => chunk.byteLength > 0);
  let position = 0;
  while (rest.length) {
    const { bytesWritten } = await file.writev(rest.slice(0, 1024), position);
    position += bytesWritten;
    let skip = bytesWritten;
    while (rest.length && skip >= rest[0].byteLength) {
      skip -= rest[0].byteLength;
      rest = rest.slice(1);
    }
    if (skip > 0) rest = [rest[0].subarray(skip), ...rest.slice(1)];
  }
}
