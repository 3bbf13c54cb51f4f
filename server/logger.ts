import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** False when lines of this level are dropped, so a caller can skip building them (absent: assume kept). */
  enabled?(level: Level): boolean;
}

/**
 * Structured logs, one JSON object a line. Callers pass only fields that are safe to keep: ids,
 * paths, statuses, timings. Never a body, a header, a key, a token or card data.
 */
export function createLogger(options: { file?: string; level?: string; out?: Writable } = {}): Logger {
  const min = order[(options.level as Level) ?? 'info'] ?? order.info;
  if (options.level === 'silent') return { log() {}, enabled: () => false };
  const out = options.out ?? (options.file ? createWriteStream(options.file, { flags: 'a', mode: 0o600 }) : process.stdout);
  return {
    enabled: (level) => order[level] >= min,
    log(level, msg, fields = {}) {
      if (order[level] < min) return;
      out.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
    },
  };
}
