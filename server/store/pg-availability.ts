import { ApiError } from '../http/api-error.ts';
import type { Logger } from '../logger.ts';

/**
 * Error codes meaning PostgreSQL cannot be reached now, not that a statement is wrong: the socket's
 * (refused, reset, unreachable, a name that does not resolve yet, a Unix socket not there) and the
 * server's own (SQLSTATE class 08, connection exceptions; 57P01 to 57P03, shutting down or starting
 * up; 53300, every connection slot taken).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * What node-postgres says when a connection ends under it or cannot be made in time (it sets no
 * code): a client's own connect timeout is "timeout expired", a pool's wait for a free connection
 * "timeout exceeded when trying to connect".
 */
const UNREACHABLE_MESSAGES = /^(Connection terminated|timeout expired$|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly)/;

/** Why `error` means the database is unreachable (its code, or node-postgres's message); undefined for any other error. */
export function unreachableReason(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return code;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return message;
  // A pool that could not connect may wrap the socket's error (AggregateError: one per address tried).
  const inner = (error as { errors?: unknown[] } | undefined)?.errors;
  return Array.isArray(inner) ? inner.map(unreachableReason).find((reason) => reason !== undefined) : undefined;
}

/** Seconds a client is told to wait (Retry-After) while the database is unreachable: the service reconnects at once when it returns. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Whether `error` is the 503 of an outage (logged once by the store: a background job need not log it again). */
export const isOutage = (error: unknown): boolean => (error as { code?: unknown } | undefined)?.code === 'database_unavailable';

export const databaseUnavailable = () =>
  new ApiError('database_unavailable', 'The service cannot reach its database just now: retry in a moment.', null, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/**
 * Whether the database answers, as the requests find out: an outage is logged once when the first
 * request finds it unreachable, and once when a statement succeeds again, never
 * per request. Each request that meets it answers 503 database_unavailable with Retry-After; nothing
 * else is held back, so the first request after the database returns is served at once.
 */
export class DatabaseAvailability {
  #downSince: number | undefined;

  constructor(
    private readonly logger: Logger | undefined,
    /** The database as the log names it (no password). */
    private readonly database: string,
  ) {}

  /** The 503 to answer when `error` means the database is unreachable (noting the outage); otherwise undefined. */
  failed(error: unknown): ApiError | undefined {
    const reason = unreachableReason(error);
    if (reason === undefined) return undefined;
    if (this.#downSince === undefined) {
      this.#downSince = performance.now();
      this.logger?.log('error', 'database unavailable: answering 503 until it returns', { database: this.database, reason });
    }
    return databaseUnavailable();
  }

  /** A statement succeeded: ends an outage, if one was under way. */
  succeeded(): void {
    if (this.#downSince === undefined) return;
    const downMs = Math.round(performance.now() - this.#downSince);
    this.#downSince = undefined;
    this.logger?.log('info', 'database available again', { database: this.database, down_ms: downMs });
  }
}
