import { createHmac } from 'node:crypto';
import { Recent } from '../http/recent.ts';
import { randomBytes } from '../identity/secrets.ts';

/** The prefix of a signing secret; the rest is its key, base64 (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks and Svix make them. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed
 * by the secret's bytes (the base64 after `whsec_`).
 */
export function signature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  let key = keys.get(secret);
  if (key === undefined) keys.set(secret, (key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')));
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** The keys of the secrets signing lately, decoded once. */
const keys = new Recent<string, Buffer>(1_000);

/** The headers of a delivery: `webhook-signature` holds one signature per secret (two during a rotation), space separated. */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string | Buffer): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
