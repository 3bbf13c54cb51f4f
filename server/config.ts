import { resolve } from 'node:path';
import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from './idempotency/idempotency-keys.ts';
import type { RateLimitOptions } from './http/rate-limit.ts';
import { MIN_COMPACT_BYTES } from './store/embedded/compaction.ts';
import { DEFAULT_EVENT_RETENTION_DAYS } from './events/events.ts';
import { DEFAULT_RETRY_SCHEDULE, DEFAULT_WEBHOOK_TIMEOUT_MS, parseRetrySchedule } from './webhooks/retry-schedule.ts';

/** Everything the service reads from its environment, in one place. */
export interface Config {
  port: number;
  demoPort: number;
  /** Where the lowdb file lives; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** The service's public URL, as merchant pages reach it. */
  publicUrl: string;
  rateLimit: RateLimitOptions;
  /**
   * Card-testing limits of tokenisation (POST /frames/tokenise; POST /v1/tokens counts per merchant
   * too), beside the general limiter: per client address (an IPv6 address by its /64), per session
   * (intent) and per merchant across all its sessions. `perSecond` 0 turns one off. Absent: the
   * defaults below.
   */
  tokeniseRateLimit?: { perIp: RateLimitOptions; perSession: RateLimitOptions; perMerchant?: RateLimitOptions };
  /**
   * How many proxies (load balancers) stand in front of the service (CPE_TRUST_PROXY, default 0):
   * the client address is read that many hops from the right of X-Forwarded-For; with 0 the header
   * is ignored, since any client can write it (server/http/client-address.ts).
   */
  trustProxy?: number;
  log: { level: string; file?: string };
  /** Seconds an idempotency key's first answer is kept (CPE_IDEMPOTENCY_RETENTION); default 24 h. */
  idempotencyRetentionSeconds?: number;
  /** Days an event is kept (CPE_EVENT_RETENTION_DAYS); default 30. */
  eventRetentionDays?: number;
  /** How long a webhook receiver has to answer (CPE_WEBHOOK_TIMEOUT_MS); default 10 s. */
  webhookTimeoutMs?: number;
  /** The delays (ms) after each failed webhook attempt (CPE_WEBHOOK_RETRY_SCHEDULE); default 5s,5m,30m,2h,5h,10h,10h. */
  webhookRetrySchedule?: number[];
  /** false: webhooks to private, loopback and link-local addresses are refused (CPE_WEBHOOK_ALLOW_PRIVATE=0); default true. */
  webhookAllowPrivate?: boolean;
  /** How often each process looks for webhook deliveries coming due (tests); default 1 s. */
  webhookPollMs?: number;
  /** The log is compacted once it outgrows the live data and this many bytes (CPE_COMPACT_MIN_BYTES; default 1 MiB). */
  compactMinBytes?: number;
  /**
   * CPE_DATABASE_URL: a postgres:// URL runs the service on PostgreSQL (any number of processes on
   * one database); unset, the embedded store in `dataDir` (one process).
   */
  databaseUrl?: string;
  /** CPE_DATABASE_POOL: connections per process to PostgreSQL (default 20). */
  databasePool?: number;
  /** Dashboard sign-in attempts per client address (default: 10 at once, then 10 a minute; server/dashboard/dashboard-routes.ts). */
  dashboardSignInLimit?: RateLimitOptions;
  /** CPE_PROCESSES: how many worker processes `npm start` runs on one port (node:cluster; default 1). */
  processes?: number;
  /** CPE_HEADERS_TIMEOUT_MS: how long a client may take to send a request's headers (408 after). */
  headersTimeoutMs?: number;
  /** CPE_REQUEST_TIMEOUT_MS: how long it may take to send a whole request, body included (408 after). */
  requestTimeoutMs?: number;
  /** CPE_MAX_CONNECTIONS: open connections per process; past it the longest idle one is closed (http/connection-cap.ts). */
  maxConnections?: number;
  /**
   * CPE_TEST_CLOCK (tests only): the service's clock stands still at these Unix seconds and moves
   * only when the process that started it says so (server/test-clock.ts).
   */
  testClock?: number;
}

/** Slow clients' limits unless configured (Node's own: 60 s for headers, 300 s for a request, no connection cap). */
export const DEFAULT_HTTP_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 1_000 } as const;

const int = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
};

/**
 * Tokenise limits unless configured: 5/s (burst 200) per address, 1/s (burst 20) per session, and
 * 25/s (burst 250) per merchant: Stripe's test-mode request rate, far above what a test shop's
 * shoppers type, far below what a card-testing script spread over many sessions and addresses needs.
 */
export const DEFAULT_TOKENISE_RATE_LIMIT = {
  perIp: { perSecond: 5, burst: 200 },
  perSession: { perSecond: 1, burst: 20 },
  perMerchant: { perSecond: 25, burst: 250 },
} as const;

/** CPE_TRUST_PROXY: a count of proxies, refused loudly otherwise (`true` would silently mean 0). */
function proxyHops(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0)
    throw new Error(`CPE_TRUST_PROXY is the number of proxies in front of the service (0, 1, 2…), got '${value}'.`);
  return hops;
}

/** A positive whole number from `variable`, refused loudly otherwise; undefined when unset. */
function positive(env: NodeJS.ProcessEnv, variable: string): number | undefined {
  const value = env[variable];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${variable} is a positive whole number, got '${value}'.`);
  return n;
}

/** A positive number of days (CPE_EVENT_RETENTION_DAYS), refused loudly otherwise. */
function days(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3650) throw new Error(`${name} is a number of days (above 0, at most 3650), got '${value}'.`);
  return n;
}

/** CPE_TEST_CLOCK: Unix seconds, refused loudly otherwise. */
function unixSeconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} is a time in Unix seconds (a whole number), got '${value}'.`);
  return n;
}

/** CPE_WEBHOOK_TIMEOUT_MS: 100 ms to 60 s, refused loudly otherwise. */
function timeoutMs(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_WEBHOOK_TIMEOUT_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 60_000) throw new Error(`CPE_WEBHOOK_TIMEOUT_MS is milliseconds from 100 to 60000, got '${value}'.`);
  return n;
}

/** CPE_WEBHOOK_ALLOW_PRIVATE: 1 (default) or 0. */
function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new Error(`${name} is 1 or 0, got '${value}'.`);
}

/** CPE_PROCESSES: a positive count, refused loudly otherwise. */
function processCount(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`CPE_PROCESSES is the number of worker processes (1 to 64), got '${value}'.`);
  return n;
}

export function configFromEnv(env = process.env): Config {
  const port = int(env.PORT, 4242);
  const perSecond = int(env.CPE_RATE_LIMIT, 100);
  return {
    port,
    demoPort: int(env.DEMO_PORT, 4243),
    dataDir: resolve(env.CPE_DATA_DIR ?? 'data'),
    publicUrl: env.CPE_PUBLIC_URL ?? `http://localhost:${port}`,
    rateLimit: { perSecond, burst: int(env.CPE_RATE_BURST, perSecond * 2) },
    // CPE_TOKENISE_RATE_PER_IP / _PER_SESSION / _PER_MERCHANT: requests per second, 0 = off.
    tokeniseRateLimit: {
      perIp: { ...DEFAULT_TOKENISE_RATE_LIMIT.perIp, perSecond: int(env.CPE_TOKENISE_RATE_PER_IP, DEFAULT_TOKENISE_RATE_LIMIT.perIp.perSecond) },
      perSession: {
        ...DEFAULT_TOKENISE_RATE_LIMIT.perSession,
        perSecond: int(env.CPE_TOKENISE_RATE_PER_SESSION, DEFAULT_TOKENISE_RATE_LIMIT.perSession.perSecond),
      },
      perMerchant: {
        ...DEFAULT_TOKENISE_RATE_LIMIT.perMerchant,
        perSecond: int(env.CPE_TOKENISE_RATE_PER_MERCHANT, DEFAULT_TOKENISE_RATE_LIMIT.perMerchant.perSecond),
      },
    },
    trustProxy: proxyHops(env.CPE_TRUST_PROXY),
    log: { level: env.CPE_LOG_LEVEL ?? 'info', file: env.CPE_LOG_FILE },
    idempotencyRetentionSeconds: int(env.CPE_IDEMPOTENCY_RETENTION, DEFAULT_IDEMPOTENCY_RETENTION_SECONDS),
    eventRetentionDays: days('CPE_EVENT_RETENTION_DAYS', env.CPE_EVENT_RETENTION_DAYS, DEFAULT_EVENT_RETENTION_DAYS),
    webhookTimeoutMs: timeoutMs(env.CPE_WEBHOOK_TIMEOUT_MS),
    webhookRetrySchedule: parseRetrySchedule(env.CPE_WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE),
    webhookAllowPrivate: flag('CPE_WEBHOOK_ALLOW_PRIVATE', env.CPE_WEBHOOK_ALLOW_PRIVATE, true),
    compactMinBytes: int(env.CPE_COMPACT_MIN_BYTES, MIN_COMPACT_BYTES),
    databaseUrl: env.CPE_DATABASE_URL || undefined,
    databasePool: int(env.CPE_DATABASE_POOL, 20),
    processes: processCount(env.CPE_PROCESSES),
    ...httpLimits(env),
    testClock: unixSeconds('CPE_TEST_CLOCK', env.CPE_TEST_CLOCK),
  };
}

/**
 * The slow clients' limits of a configuration, defaults filled in (a request's time is at least its
 * headers'); a request's limit below its headers' is refused, as Node would refuse it.
 */
export function httpLimitsOf(config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnections'>): Required<Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnections'>> {
  const { headersTimeoutMs = DEFAULT_HTTP_LIMITS.headersTimeoutMs, maxConnections = DEFAULT_HTTP_LIMITS.maxConnections } = config;
  const requestTimeoutMs = config.requestTimeoutMs ?? Math.max(headersTimeoutMs, DEFAULT_HTTP_LIMITS.requestTimeoutMs);
  if (requestTimeoutMs < headersTimeoutMs)
    throw new Error(`CPE_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) is the time for a whole request: it cannot be shorter than CPE_HEADERS_TIMEOUT_MS (${headersTimeoutMs}).`);
  return { headersTimeoutMs, requestTimeoutMs, maxConnections };
}

const httpLimits = (env: NodeJS.ProcessEnv) =>
  httpLimitsOf({
    headersTimeoutMs: positive(env, 'CPE_HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: positive(env, 'CPE_REQUEST_TIMEOUT_MS'),
    maxConnections: positive(env, 'CPE_MAX_CONNECTIONS'),
  });
