import { createCipheriv, createDecipheriv, createHmac, hash } from 'node:crypto';
import { randomBytes } from '../identity/secrets.ts';
import type { Middleware } from 'koa';
import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import { ApiError } from './api-error.ts';
import { asFormValues } from './parameters.ts';
import type { AppState } from './app-state.ts';
import type { Ctx } from './operation.ts';
import type { Collection, Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import { expiryIndex } from '../store/expiry.ts';

/** How long a first answer is kept, unless configured (CPE_IDEMPOTENCY_RETENTION): 24 h, as the Stripe API keeps keys. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** A stored first answer, under a hash of (credential scope, method, path, key). */
interface IdempotencyRecord {
  id: string;
  /** Keyed hash of the canonical JSON of the body's parameters (JSON or form alike): another body under the same key is a 409. */
  fingerprint: string;
  /** The answer's HTTP status; 0 while the first run is under way (within its own transaction only). */
  status: number;
  /** The answer's JSON, AES-256-GCM sealed under a key derived from the idempotency key (see seal). */
  sealed: string;
  created_at: number;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + canonicalJson(value[i]);
    return `${text}]`;
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    let text = '{';
    for (let i = 0; i < keys.length; i++) text += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson((value as Record<string, unknown>)[keys[i]])}`;
    return `${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const handled = new WeakSet<object>();

const sha256 = (text: string) => hash('sha256', text, 'hex');

/**
 * Answers can hold secrets (create's session_token), which must not rest in the store readable. They
 * are sealed under a key only the client's idempotency key can rebuild; the store keeps its hash.
 */
function seal(secretKey: Buffer, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value ?? null), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

function unseal(secretKey: Buffer, sealed: string): unknown {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', secretKey, iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8'));
}

/**
 * Which answers a repeat gets again, as the Stripe API does: not a 5xx or 429 (try again), nor a 400
 * that refused the request before it ran (fix and resend with the same key). A card_error did run:
 * the refused card counted towards the intent's lock, so a repeat replays it rather than counting
 * twice.
 */
const mismatch = () =>
  new ApiError(409, 'idempotency_error', 'idempotency_key_reused', 'This X-Idempotency-Key was already used with another request body; use a new key.', 'X-Idempotency-Key');

export const replayable = (status: number, type?: string) => status < 500 && status !== 429 && (status !== 400 || type === 'card_error');

/**
 * `X-Idempotency-Key` on a POST: the first answer (status and body) is kept for `retentionSeconds`
 * and a repeat with the same key and body gets it again without running anything; the same key with
 * another body is a 409 idempotency_error; a repeat arriving while the first still runs waits for it.
 * After the retention a key runs as a new request, and prune() drops the record. Records are scoped
 * per credential (`scopeOf`, after authentication) and per method and path, so one per-flow key can
 * be forwarded on attach, confirm and authorise alike.
 *
 * The first run claims its key by inserting the record (status 0) in the request's transaction and
 * fills it in before that transaction commits, so the answer and the changes it made are durable
 * together. A repeat arriving meanwhile, in this process or another, waits on that claim (the
 * embedded engine's write transactions take turns; PostgreSQL's unique key blocks the second insert
 * until the first transaction ends) and then answers from the record.
 */
export class IdempotencyKeys {
  readonly #records: Collection<IdempotencyRecord>;

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly retentionSeconds = DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  ) {
    this.#records = store.collection<IdempotencyRecord>('idempotency_keys', expiryIndex((r) => r.created_at + retentionSeconds));
  }

  /** Drops the records past their retention; a lookup ignores them already, so this only bounds growth. */
  prune(): Promise<number> {
    return this.#records.deleteExpired(this.clock.now());
  }

  middleware(scopeOf: (ctx: Ctx) => string | undefined = (ctx) => ctx.state.rateKey): Middleware<AppState> {
    const records = this.#records;
    const { clock, retentionSeconds } = this;
    const keyed: Middleware<AppState> = async (ctx, next) => {
      const key = ctx.get(IDEMPOTENCY_HEADER);
      // Applied twice to one request (overlapping router paths), the inner one would wait for the outer.
      if (!key || handled.has(ctx.request)) return next();
      handled.add(ctx.request);
      if (!KEY.test(key))
        throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'X-Idempotency-Key must be 1 to 255 printable ASCII characters.', 'X-Idempotency-Key');
      const scoped = canonicalJson([scopeOf(ctx) ?? `ip:${ctx.ip}`, ctx.method, ctx.path, key]);
      const id = sha256(scoped);
      const secretKey = hash('sha256', `seal:${scoped}`, 'buffer');
      // Keyed, so a stored fingerprint reveals nothing of the body (a tokenise body holds card data).
      const fingerprint = createHmac('sha256', secretKey).update(canonicalJson(asFormValues(ctx.request.body ?? {}))).digest('hex');

      const claim = { id, fingerprint, status: 0, sealed: '', created_at: clock.now() };
      const { inserted, row: stored } = await records.insertOrGet(claim);
      if (!inserted) {
        if (stored.status !== 0 && stored.created_at + retentionSeconds > clock.now()) {
          if (stored.fingerprint !== fingerprint) throw mismatch();
          ctx.status = stored.status;
          ctx.body = unseal(secretKey, stored.sealed);
          ctx.set('Idempotent-Replayed', 'true');
          return;
        }
        await records.update(id, claim); // past its retention: the key runs as new
      }

      // The answer is kept (replayable) or the claim let go, in the request's transaction either way.
      const settle = (status: number, body: unknown, type?: string) =>
        replayable(status, type) ? records.update(id, { fingerprint, status, sealed: seal(secretKey, body), created_at: clock.now() }) : records.delete(id);
      try {
        await next();
      } catch (error) {
        if (error instanceof ApiError) await settle(error.status, error.toBody(), error.type);
        else await records.delete(id);
        throw error;
      }
      await settle(ctx.status, ctx.body);
    };
    // Only a POST is ever replayed: anything else goes straight on.
    return (ctx, next) => (ctx.method === 'POST' ? keyed(ctx, next) : next());
  }
}
