import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';

/**
 * The names of the embedded engine's files in its data folder: the snapshot, the numbered logs that
 * follow it, and the single JSON file of the versions before the log.
 */
export const SNAPSHOT_FILE = 'cpe.snapshot';
/** The single-JSON file of the versions before the log: read once, then replaced by a snapshot. */
export const LEGACY_FILE = 'cpe.json';
export const logFileName = (n: number) => `cpe.${String(n).padStart(6, '0')}.log`;
const LOG_FILE = /^cpe\.(\d{6})\.log$/;

/** The numbers of the logs in `dir`, lowest first. */
export function logNumbers(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => LOG_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** Makes the folder's entries (a new or renamed file's name) durable. */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
