import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TypedEvent } from '../api/events.ts';

export type { TypedEvent as CpeEvent };

/** What failed: the first thing to check is named by the code. */
export type WebhookVerificationCode = 'missing_headers' | 'invalid_timestamp' | 'timestamp_too_old' | 'timestamp_too_new' | 'invalid_secret' | 'invalid_signature' | 'invalid_body';

/** A delivery that is not CPE's, or not for this secret: answer 400 and do nothing with it. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Headers as Node (`req.headers`), the Fetch API (`Headers`) or a plain object of any case give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way; default 300 s (Standard Webhooks). */
  toleranceSeconds?: number;
  /** Now in Unix seconds (tests). */
  now?: () => number;
}

const keyOf = (secret: string): Buffer => {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  if (key.length < 16) throw new WebhookVerificationError('invalid_secret', 'The secret is not a webhook signing secret: use the whsec_… your endpoint was created (or rotated) with.');
  return key;
};

/**
 * Checks a CPE webhook delivery as the Standard Webhooks specification says (the `standardwebhooks`
 * and `svix` libraries accept the same deliveries) and answers its event, typed by its `type`.
 * `rawBody` is the body exactly as received (a parsed and re-serialised JSON is not the signed text);
 * `secret` is the endpoint's `whsec_…`, or several (old and new, around a rotation). Throws
 * WebhookVerificationError naming what failed: missing headers, a timestamp more than five minutes
 * off, or no signature made with the secret.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string | readonly string[], options: VerifyOptions = {}): TypedEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const missing = [['webhook-id', id], ['webhook-timestamp', timestamp], ['webhook-signature', signatures]].filter(([, value]) => !value).map(([name]) => name);
  if (missing.length) throw new WebhookVerificationError('missing_headers', `Missing ${missing.join(', ')}: this request is not a CPE webhook delivery.`);
  const seconds = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp!)) throw new WebhookVerificationError('invalid_timestamp', `webhook-timestamp is not Unix seconds: '${timestamp}'.`);
  const now = options.now?.() ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (seconds < now - tolerance) throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is ${now - seconds} s old, more than ${tolerance} s: a replayed delivery, or this machine's clock is wrong.`);
  if (seconds > now + tolerance) throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is ${seconds - now} s ahead, more than ${tolerance} s: this machine's clock is wrong.`);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const given = signatures!
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  const matches = (typeof secret === 'string' ? [secret] : secret).some((one) => {
    const expected = createHmac('sha256', keyOf(one)).update(signed).digest();
    return given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
  if (!matches) throw new WebhookVerificationError('invalid_signature', 'No signature matches the secret: the body was changed (verify the raw body, before any JSON parsing), or the secret is not this endpoint\'s.');
  try {
    return JSON.parse(body.toString('utf8')) as TypedEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON.');
  }
}
