import { hash, randomFillSync } from 'node:crypto';
import { positionedId } from './ids.ts';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * Bytes from the system's CSPRNG (as crypto.randomBytes), drawn from a pool refilled 4 KB at a time:
 * one call into OpenSSL per few hundred ids instead of one per id. Each byte is handed out once.
 */
export function randomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomFillSync(Buffer.alloc(size));
  if (used + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_BYTES));
    used = 0;
  }
  const bytes = Buffer.from(pool.subarray(used, used + size));
  used += size;
  return bytes;
}

/** A new credential: a readable prefix and 192 random bits. Only its hash is ever stored. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/** Credentials are long random strings, so a plain SHA-256 is enough to store them safely. */
export const hashSecret = (secret: string) => hash('sha256', secret, 'hex');

/**
 * A server-assigned id: a type prefix, its sort position (see ids.ts: lists are ordered by it, so a
 * cursor needs no row) and 96 random bits.
 */
export const newId = (prefix: string) => positionedId(prefix, randomBytes(12).toString('base64url').replaceAll('-', 'A').replaceAll('_', 'B'));

/** Reads `Authorization: Bearer <secret>`; undefined when absent or of another scheme. */
export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
