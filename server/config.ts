import { resolve } from 'node:path';

/** Everything the service reads from its environment, in one place. */
export interface Config {
  port: number;
  demoPort: number;
  /** Where the lowdb file lives; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** The service's public URL, as merchant pages reach it. */
  publicUrl: string;
  rateLimit: { perSecond: number; burst: number };
  log: { level: string; file?: string };
}

const int = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
};

export function configFromEnv(env = process.env): Config {
  const port = int(env.PORT, 4242);
  const perSecond = int(env.CPE_RATE_LIMIT, 100);
  return {
    port,
    demoPort: int(env.DEMO_PORT, 4243),
    dataDir: resolve(env.CPE_DATA_DIR ?? 'data'),
    publicUrl: env.CPE_PUBLIC_URL ?? `http://localhost:${port}`,
    rateLimit: { perSecond, burst: int(env.CPE_RATE_BURST, perSecond * 2) },
    log: { level: env.CPE_LOG_LEVEL ?? 'info', file: env.CPE_LOG_FILE },
  };
}
