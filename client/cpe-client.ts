import { randomUUID } from 'node:crypto';
import type { ErrorBody } from '../api/errors.ts';
import type { Answer, BodyIn, QueryIn } from '../api/operations.ts';
import { IDEMPOTENCY_HEADER } from '../protocol/runtime/headers.ts';
import { pathOf, ROUTES, type OperationName } from '../api/routes.ts';

export interface CpeClientOptions {
  /** The merchant's licence key (`sk_test_…`). Server side only: never send it to a browser. */
  licenceKey: string;
  /** The service, default `http://localhost:4242`. */
  baseUrl?: string;
  /** Per request, default 10 s. */
  timeoutMs?: number;
  /** Retries after a network failure, a 5xx or a 429, with the same idempotency key; default 2. */
  maxRetries?: number;
  /**
   * How long to wait before retry n (1, 2, …): `initialMs · 2ⁿ⁻¹`, at most `maxMs`, with jitter (× 0.5 to
   * 1), never less than `initialMs`, and never less than the answer's `Retry-After`, as stripe-node
   * waits. Default 500 ms and 5 s.
   */
  retryDelay?: { initialMs: number; maxMs: number };
  /** Waits between retries; tests replace it to record the delays instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
}

/** The backend route each middleware route forwards to. */
const FORWARDED = { attach: 'attachPaymentIntent', confirm: 'confirmPaymentIntent', authorise: 'authorisePaymentIntent' } as const;

/** The longest Retry-After honoured; a longer one is the caller's to schedule, not a retry's. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The wait before retry `n` (1-based): exponential, jittered, bounded, and not before Retry-After. */
export function retryDelayMs(n: number, retryAfterMs: number | undefined, { initialMs, maxMs }: { initialMs: number; maxMs: number }, random = Math.random): number {
  const exponential = Math.min(initialMs * 2 ** (n - 1), maxMs);
  const jittered = Math.max(initialMs, exponential * (0.5 + random() / 2));
  return retryAfterMs !== undefined ? Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)) : jittered;
}

/**
 * A query string as the Stripe API's clients write one: nested objects and arrays in brackets
 * (`created[gte]=…`, `metadata[order_id]=…`, `status[0]=…`), every value as its text.
 */
export function queryString(query: object | undefined): string {
  const pairs: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) add(`${name}[${key}]`, child);
      return;
    }
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === null ? '' : String(value))}`);
  };
  for (const [name, value] of Object.entries(query ?? {})) add(name, value);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterOf(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export interface RequestOptions {
  /** Sent as `X-Idempotency-Key`. A POST without one gets a fresh key, reused by its retries. */
  idempotencyKey?: string;
}

/** The service's answer to a forwarded request, status and body untouched (for middleware routes). */
export interface RawAnswer {
  status: number;
  body: unknown;
}

/** A 4xx or 5xx answer of the service, with the fields of its error object. */
export class CpeApiError extends Error {
  readonly type: string;
  readonly code: string;
  readonly param: string | null;

  constructor(
    readonly status: number,
    error: ErrorBody['error'],
  ) {
    super(error.message);
    this.name = 'CpeApiError';
    this.type = error.type;
    this.code = error.code;
    this.param = error.param;
  }
}

/**
 * The typed Node client of the service's backend routes (`import { CpeClient } from 'cpe/server'`).
 *
 * ```ts
 * const cpe = new CpeClient({ licenceKey: process.env.CPE_LICENCE_KEY!, baseUrl: 'http://localhost:4242' });
 * const { paymentIntentId, session_token, opaque_key } = await cpe.createPaymentIntent({ merchantid, amount: 1234, currency: 'GBP', identifier: 'order-1' });
 * ```
 */
export class CpeClient {
  readonly #licenceKey: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryDelay: { initialMs: number; maxMs: number };
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: CpeClientOptions) {
    if ('window' in globalThis) throw new Error('CpeClient holds the licence key: use it on your server, never in a browser.');
    if (!/^sk_/.test(options.licenceKey ?? '')) throw new Error('CpeClient needs the licence key (sk_…), not the public key.');
    this.#licenceKey = options.licenceKey;
    this.#baseUrl = (options.baseUrl ?? 'http://localhost:4242').replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryDelay = options.retryDelay ?? { initialMs: 500, maxMs: 5_000 };
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  createPaymentIntent(input: BodyIn<'createPaymentIntent'>, options?: RequestOptions): Promise<Answer<'createPaymentIntent'>> {
    return this.#call('createPaymentIntent', input, options);
  }

  retrievePaymentIntent(paymentIntentId: string): Promise<Answer<'retrievePaymentIntent'>> {
    return this.#call('retrievePaymentIntent', undefined, {}, { id: paymentIntentId });
  }

  /** Your intents, newest first: `status` (one or several), `created: {gte, lte}`, `metadata: {key: value}`, cursors. */
  listPaymentIntents(query?: QueryIn<'listPaymentIntents'>): Promise<Answer<'listPaymentIntents'>> {
    return this.#call('listPaymentIntents', undefined, {}, {}, query);
  }

  /** Sets `metadata` (merged; "" removes a key) and `description`. */
  updatePaymentIntent(paymentIntentId: string, input: BodyIn<'updatePaymentIntent'>, options?: RequestOptions): Promise<Answer<'updatePaymentIntent'>> {
    return this.#call('updatePaymentIntent', input, options, { id: paymentIntentId });
  }

  /** Refunds captured money of a succeeded intent: `amount` (default: what remains), `reason`, `metadata`. */
  createRefund(input: BodyIn<'createRefund'>, options?: RequestOptions): Promise<Answer<'createRefund'>> {
    return this.#call('createRefund', input, options);
  }

  listRefunds(query?: QueryIn<'listRefunds'>): Promise<Answer<'listRefunds'>> {
    return this.#call('listRefunds', undefined, {}, {}, query);
  }

  retrieveRefund(refundId: string): Promise<Answer<'retrieveRefund'>> {
    return this.#call('retrieveRefund', undefined, {}, { id: refundId });
  }

  /**
   * Test mode: a single-use card token made from your server (`POST /v1/tokens`), for server-side
   * tests; it attaches once, to any of your intents. In a browser the hosted frames tokenise.
   */
  createToken(input: BodyIn<'createToken'>, options?: RequestOptions): Promise<Answer<'createToken'>> {
    return this.#call('createToken', input, options);
  }

  attach(input: BodyIn<'attachPaymentIntent'>, options?: RequestOptions): Promise<Answer<'attachPaymentIntent'>> {
    return this.#call('attachPaymentIntent', input, options);
  }

  confirm(input: BodyIn<'confirmPaymentIntent'>, options?: RequestOptions): Promise<Answer<'confirmPaymentIntent'>> {
    return this.#call('confirmPaymentIntent', input, options);
  }

  authorise(input: BodyIn<'authorisePaymentIntent'>, options?: RequestOptions): Promise<Answer<'authorisePaymentIntent'>> {
    return this.#call('authorisePaymentIntent', input, options);
  }

  capture(input: BodyIn<'capturePaymentIntent'>, options?: RequestOptions): Promise<Answer<'capturePaymentIntent'>> {
    return this.#call('capturePaymentIntent', input, options);
  }

  cancel(input: BodyIn<'cancelPaymentIntent'>, options?: RequestOptions): Promise<Answer<'cancelPaymentIntent'>> {
    return this.#call('cancelPaymentIntent', input, options);
  }

  verify(input: BodyIn<'verifyPaymentIntent'>, options?: RequestOptions): Promise<Answer<'verifyPaymentIntent'>> {
    return this.#call('verifyPaymentIntent', input, options);
  }

  /** Your payment events, newest first: `{type: 'payment_intent.*', created: {gte}}`, cursors as in every list. */
  listEvents(query: QueryIn<'listEvents'> = {}): Promise<Answer<'listEvents'>> {
    return this.#call('listEvents', undefined, {}, {}, query);
  }

  retrieveEvent(eventId: string): Promise<Answer<'retrieveEvent'>> {
    return this.#call('retrieveEvent', undefined, {}, { id: eventId });
  }

  /**
   * POSTs a body to a backend route and hands back the answer as is, errors included: what a
   * merchant's middleware route does with the SDK's request.
   */
  async forward(operation: 'attach' | 'confirm' | 'authorise', body: unknown, options?: RequestOptions): Promise<RawAnswer> {
    return this.#send(FORWARDED[operation], body, options);
  }

  async #call<K extends OperationName>(name: K, body?: unknown, options?: RequestOptions, params?: Record<string, string>, query?: object): Promise<Answer<K>> {
    const answer = await this.#send(name, body, options, params, query);
    if (answer.status >= 400) {
      const error = (answer.body as Partial<ErrorBody>)?.error ?? { type: 'api_error', code: 'unexpected_answer', message: `HTTP ${answer.status}`, param: null };
      throw new CpeApiError(answer.status, error);
    }
    return answer.body as Answer<K>;
  }

  async #send(name: OperationName, body?: unknown, options: RequestOptions = {}, params?: Record<string, string>, query?: object): Promise<RawAnswer> {
    const route = ROUTES[name];
    const method = route.method.toUpperCase();
    const headers: Record<string, string> = { authorization: `Bearer ${this.#licenceKey}`, accept: 'application/json' };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      // One key for the request and its retries, so a retry can never pay twice.
      headers[IDEMPOTENCY_HEADER] = options.idempotencyKey ?? randomUUID();
    }
    const url = this.#baseUrl + pathOf(route, params) + queryString(query);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        // Not answered (refused, reset, timed out): the same key makes a retry safe.
        if (attempt >= this.#maxRetries) throw error;
        await this.#sleep(retryDelayMs(attempt + 1, undefined, this.#retryDelay));
        continue;
      }
      if ((response.status >= 500 || response.status === 429) && attempt < this.#maxRetries) {
        await this.#sleep(retryDelayMs(attempt + 1, retryAfterOf(response.headers.get('retry-after')), this.#retryDelay));
        continue;
      }
      return { status: response.status, body: parseAnswer(response.status, text) };
    }
  }
}

/** The answer's JSON; anything else (a proxy's HTML page, a cut body) is a CpeApiError with the status. */
function parseAnswer(status: number, text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new CpeApiError(status, {
      type: 'api_error',
      code: 'invalid_response',
      message: `The service answered HTTP ${status} with a body that is not JSON.`,
      param: null,
    });
  }
}
