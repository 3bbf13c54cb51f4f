import { createCipheriv, createDecipheriv, createHmac, hash } from 'node:crypto';
import { randomBytes } from '../identity/secrets.ts';
import type { Collection, Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import { expiryIndex } from '../store/expiry.ts';

/** How long a first answer is kept, unless configured (CPE_IDEMPOTENCY_RETENTION): 24 h, as the Stripe API keeps keys. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;

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
export const replayable = (status: number, type?: string) => status < 500 && status !== 429 && (status !== 400 || type === 'card_error');

/**
 * A first run's hold on its key: settle() keeps its answer for repeats (when replayable) or lets go
 * of the key, release() lets go of it; either in the request's transaction.
 */
export class RunningClaim {
  readonly outcome = 'run';
  constructor(
    private readonly records: Collection<IdempotencyRecord>,
    private readonly clock: Clock,
    private readonly id: string,
    private readonly fingerprint: string,
    private readonly secretKey: Buffer,
  ) {}

  settle(status: number, body: unknown, errorType?: string): Promise<unknown> {
    const { records, id, fingerprint } = this;
    return replayable(status, errorType) ? records.update(id, { fingerprint, status, sealed: seal(this.secretKey, body), created_at: this.clock.now() }) : records.delete(id);
  }

  release(): Promise<unknown> {
    return this.records.delete(this.id);
  }
}

/** What a request under an idempotency key does (see IdempotencyKeys.claim). */
export type Claim =
  /** A repeat of a first run that finished: it gets that run's answer again. */
  | { outcome: 'replay'; status: number; body: unknown }
  /** The same key with another body. */
  | { outcome: 'mismatch' }
  /** The first run (or the first after the retention): it runs, then settles or lets go of the key. */
  | RunningClaim;

/**
 * Idempotency keys, as the Stripe API has them: the first answer (status and body) to a request
 * under a key is kept for `retentionSeconds` and a repeat with the same key and body gets it again
 * without running anything; the same key with another body is refused; a repeat arriving while the
 * first still runs waits for it. After the retention a key runs as a new request, and prune() drops
 * the record. Records are scoped per credential and per method and path, so one per-flow key can be
 * forwarded on attach, confirm and authorise alike. The HTTP side (the header, the answers) is
 * server/http/idempotency.ts, which uses these; nothing here knows of HTTP.
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

  /**
   * Claims `key` for a request of `scope` (the credential), `method` and `path` with these body
   * parameters, inside the request's transaction.
   */
  async claim(scope: string, method: string, path: string, key: string, params: unknown): Promise<Claim> {
    const records = this.#records;
    const { clock, retentionSeconds } = this;
    const scoped = canonicalJson([scope, method, path, key]);
    const id = sha256(scoped);
    const secretKey = hash('sha256', `seal:${scoped}`, 'buffer');
    // Keyed, so a stored fingerprint reveals nothing of the body (a tokenise body holds card data).
    const fingerprint = createHmac('sha256', secretKey).update(canonicalJson(params)).digest('hex');

    const claim = { id, fingerprint, status: 0, sealed: '', created_at: clock.now() };
    const { inserted, row: stored } = await records.insertOrGet(claim);
    if (!inserted) {
      if (stored.status !== 0 && stored.created_at + retentionSeconds > clock.now()) {
        if (stored.fingerprint !== fingerprint) return { outcome: 'mismatch' };
        return { outcome: 'replay', status: stored.status, body: unseal(secretKey, stored.sealed) };
      }
      await records.update(id, claim); // past its retention: the key runs as new
    }
    return new RunningClaim(records, clock, id, fingerprint, secretKey);
  }
}
