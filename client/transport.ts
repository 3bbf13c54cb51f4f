import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type ErrorCode } from '../api/error-codes.ts';
import type { ErrorBody } from '../api/errors.ts';
import type { Answer } from '../api/operations.ts';
import { pathOf, ROUTES, type OperationName } from '../api/routes.ts';
import { IDEMPOTENCY_HEADER } from '../protocol/runtime/headers.ts';

/** What every client of the service (CpeClient, CpeMessagingClient) can be told, besides its credential. */
export interface TransportOptions {
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

/** The longest Retry-After honoured; a longer one is the caller's to schedule, not a retry's. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The wait before retry `n` (1-based): exponential, jittered, bounded, and not before Retry-After. */
export function retryDelayMs(n: number, retryAfterMs: number | undefined, { initialMs, maxMs }: { initialMs: number; maxMs: number }, random = Math.random): number {
  const exponential = Math.min(initialMs * 2 ** (n - 1), maxMs);
  const jittered = Math.max(initialMs, exponential * (0.5 + random() / 2));
  return retryAfterMs !== undefined ? Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)) : jittered;
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

/** An error object as the service (or this package) answers it; `code` is one of the README's table of codes, or a newer service's. */
export interface ApiErrorObject {
  type: string;
  code: ErrorCode | (string & {});
  message: string;
  param: string | null;
}

/** The error object of a code of the table (api/error-codes.ts), as this package answers it. */
export const errorObject = (code: ErrorCode, message: string, param: string | null = null): ApiErrorObject => ({ type: ERROR_CODES[code].type, code, message, param });

/** A 4xx or 5xx answer of the service, with the fields of its error object. */
export class CpeApiError extends Error {
  readonly type: string;
  readonly code: ErrorCode | (string & {});
  readonly param: string | null;

  constructor(
    readonly status: number,
    error: ApiErrorObject,
  ) {
    super(error.message);
    this.name = 'CpeApiError';
    this.type = error.type;
    this.code = error.code;
    this.param = error.param;
  }
}

/** One request of an operation of the table: its path's parameters, its query, its body. */
export interface Call extends RequestOptions {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
}

/**
 * Sends the table's operations (api/routes.ts: method and path) to the service with a bearer
 * credential: JSON bodies, an idempotency key on every POST (the caller's, or a fresh one reused by
 * the retries), retries after a network failure, a 5xx or a 429 with backoff (honouring Retry-After).
 */
export class Transport {
  readonly #credential: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryDelay: { initialMs: number; maxMs: number };
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(credential: string, options: TransportOptions) {
    this.#credential = credential;
    this.#baseUrl = (options.baseUrl ?? 'http://localhost:4242').replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryDelay = options.retryDelay ?? { initialMs: 500, maxMs: 5_000 };
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The operation's answer; a 4xx or 5xx is thrown as a CpeApiError. */
  async call<K extends OperationName>(name: K, call: Call = {}): Promise<Answer<K>> {
    const answer = await this.send(name, call);
    if (answer.status >= 400) {
      const error = (answer.body as Partial<ErrorBody>)?.error ?? errorObject('unexpected_answer', `HTTP ${answer.status}`);
      throw new CpeApiError(answer.status, error);
    }
    return answer.body as Answer<K>;
  }

  /** The operation's answer as it came, errors included. */
  async send(name: OperationName, { params, query, body, idempotencyKey }: Call = {}): Promise<RawAnswer> {
    const route = ROUTES[name];
    const method = route.method.toUpperCase();
    const headers: Record<string, string> = { authorization: `Bearer ${this.#credential}`, accept: 'application/json' };
    const sendsBody = method === 'POST' || method === 'PUT';
    if (sendsBody) headers['content-type'] = 'application/json';
    // One key for the request and its retries, so a retry can never pay (or post) twice.
    if (method === 'POST') headers[IDEMPOTENCY_HEADER] = idempotencyKey ?? randomUUID();
    const url = this.#baseUrl + pathOf(route, params) + queryString(query);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        // Not answered (refused, reset, timed out): the same key makes a retry safe.
        if (attempt >= this.#maxRetries) throw unreachable(this.#baseUrl, `${method} ${route.path}`, error, attempt + 1, this.#timeoutMs);
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

/**
 * A query string as the Stripe API's clients write one: nested objects and arrays in brackets
 * (`created[gte]=…`, `metadata[order_id]=…`, `status[0]=…`), every value as its text; `?` included.
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

/**
 * No answer at all: a CpeApiError (`status` 0, type `api_connection_error`, as stripe-node's
 * StripeConnectionError) naming the service's URL, the request, what failed and how many tries.
 */
function unreachable(baseUrl: string, request: string, error: unknown, tries: number, timeoutMs: number): CpeApiError {
  const timeout = (error as Error)?.name === 'TimeoutError';
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const why = timeout ? `no answer within ${timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error));
  const failure = new CpeApiError(0, {
    type: 'api_connection_error',
    code: timeout ? 'timeout' : 'service_unreachable',
    message: `Could not reach the CPE service at ${baseUrl} (${request}: ${why}) after ${tries} ${tries === 1 ? 'try' : 'tries'}. Is it running (npm start) and is baseUrl right?`,
    param: null,
  });
  (failure as { cause?: unknown }).cause = error;
  return failure;
}

/** The answer's JSON; anything else (a proxy's HTML page, a cut body) is a CpeApiError with the status. */
function parseAnswer(status: number, text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new CpeApiError(status, errorObject('invalid_response', `The service answered HTTP ${status} with a body that is not JSON.`));
  }
}
