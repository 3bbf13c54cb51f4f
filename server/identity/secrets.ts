import { createHash, randomBytes } from 'node:crypto';

/** A new credential: a readable prefix and 192 random bits. Only its hash is ever stored. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/** Credentials are long random strings, so a plain SHA-256 is enough to store them safely. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A server-assigned id: a type prefix and 96 random bits. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, (c) => (c === '-' ? 'A' : 'B'))}`;

/** Reads `Authorization: Bearer <secret>`; undefined when absent or of another scheme. */
export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
