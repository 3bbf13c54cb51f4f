import { resolve } from 'node:path';
import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from './http/idempotency.ts';
import { MIN_COMPACT_BYTES } from './store/append-log.ts';

/** Everything the service reads from its environment, in one place. */
export interface Config {
  port: number;
  demoPort: number;
  /** Where the lowdb file lives; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** The service's public URL, as merchant pages reach it. */
  publicUrl: string;
  rateLimit: { perSecond: number; burst: number };
  /**
   * Card-testing limits of POST /frames/tokenise, beside the general limiter: per client address and
   * per session (intent). `perSecond` 0 turns one off. Absent: the defaults below.
   */
  tokeniseRateLimit?: { perIp: { perSecond: number; burst: number }; perSession: { perSecond: number; burst: number } };
  log: { level: string; file?: string };
  /** Seconds an idempotency key's first answer is kept (CPE_IDEMPOTENCY_RETENTION); default 24 h. */
  idempotencyRetentionSeconds?: number;
  /** The log is compacted once it outgrows the live data and this many bytes (CPE_COMPACT_MIN_BYTES; default 1 MiB). */
  compactMinBytes?: number;
}

const int = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
};

/** Tokenise limits unless configured: 5/s (burst 200) per address, 1/s (burst 20) per session. */
export const DEFAULT_TOKENISE_RATE_LIMIT = { perIp: { perSecond: 5, burst: 200 }, perSession: { perSecond: 1, burst: 20 } } as const;

export function configFromEnv(env = process.env): Config {
  const port = int(env.PORT, 4242);
  const perSecond = int(env.CPE_RATE_LIMIT, 100);
  return {
    port,
    demoPort: int(env.DEMO_PORT, 4243),
    dataDir: resolve(env.CPE_DATA_DIR ?? 'data'),
    publicUrl: env.CPE_PUBLIC_URL ?? `http://localhost:${port}`,
    rateLimit: { perSecond, burst: int(env.CPE_RATE_BURST, perSecond * 2) },
    // CPE_TOKENISE_RATE_PER_IP / CPE_TOKENISE_RATE_PER_SESSION: requests per second, 0 = off.
    tokeniseRateLimit: {
      perIp: { ...DEFAULT_TOKENISE_RATE_LIMIT.perIp, perSecond: int(env.CPE_TOKENISE_RATE_PER_IP, DEFAULT_TOKENISE_RATE_LIMIT.perIp.perSecond) },
      perSession: {
        ...DEFAULT_TOKENISE_RATE_LIMIT.perSession,
        perSecond: int(env.CPE_TOKENISE_RATE_PER_SESSION, DEFAULT_TOKENISE_RATE_LIMIT.perSession.perSecond),
      },
    },
    log: { level: env.CPE_LOG_LEVEL ?? 'info', file: env.CPE_LOG_FILE },
    idempotencyRetentionSeconds: int(env.CPE_IDEMPOTENCY_RETENTION, DEFAULT_IDEMPOTENCY_RETENTION_SECONDS),
    compactMinBytes: int(env.CPE_COMPACT_MIN_BYTES, MIN_COMPACT_BYTES),
  };
}
