import type { Writable } from 'node:stream';
import { pino, type DestinationStream } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** False when lines of this level are dropped, so a caller can skip building them (absent: assume kept). */
  enabled?(level: Level): boolean;
  /** Writes every line still buffered, synchronously: at exit and after a fatal error, so none is lost. */
  flush?(): void;
}

/** Lines are written out together once this many bytes wait (about 20 request lines), or every FLUSH_EVERY_MS. */
const BATCH_BYTES = 4_096;
const FLUSH_EVERY_MS = 100;

/** pino's `,"time":"<ISO 8601>"`, made once per millisecond: a busy service writes many lines in each. */
let timeMs = 0;
let timeText = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeText = `,"time":"${new Date(now).toISOString()}"`;
  }
  return timeText;
}

/**
 * Structured logs, one JSON object a line (`time`, `level`, `msg` and the caller's fields), written
 * by pino: to stdout (or `file`, appended, mode 600) asynchronously and in batches (BATCH_BYTES, or
 * FLUSH_EVERY_MS at the latest), so a request never waits for the log and a busy service makes one
 * write for many lines. Buffered lines are written at exit (pino's exit hook) and by `flush()`, which
 * the start script calls after a fatal error: only a kill -9 can lose the last FLUSH_EVERY_MS of lines. Callers pass only fields that are safe to keep: ids, paths, statuses, timings. Never a body,
 * a header, a key, a token or card data.
 */
export function createLogger(options: { file?: string; level?: string; out?: Writable } = {}): Logger {
  if (options.level === 'silent') return { log() {}, enabled: () => false };
  const level = ['debug', 'info', 'warn', 'error', 'fatal'].includes(options.level ?? '') ? options.level! : 'info';
  const destination: DestinationStream & { flushSync?(): void } =
    (options.out as DestinationStream | undefined) ??
    pino.destination({ dest: options.file ?? 1, sync: false, minLength: BATCH_BYTES, periodicFlush: FLUSH_EVERY_MS, append: true, ...(options.file && { mode: 0o600 }) });
  const logger = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return {
    enabled: (at) => logger.isLevelEnabled(at),
    log(at, msg, fields) {
      logger[at](fields ?? {}, msg);
    },
    flush() {
      destination.flushSync?.();
    },
  };
}
