import type { Writable } from 'node:stream';
import { pino, type DestinationStream } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** False when lines of this level are dropped, so a caller can skip building them (absent: assume kept). */
  enabled?(level: Level): boolean;
  /**
   * Resolves once every line logged so far is written (and synced): before the process exits after a
   * fatal error or a stop signal, so none is lost.
   */
  flush?(): Promise<void>;
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

/** How long flush() waits for the lines under way (and their fsync) before it writes the rest synchronously. */
const FLUSH_WAIT_MS = 10_000;

/** Waits for `destination`'s writes under way and the rest of its buffer (SonicBoom's flush); a plain stream has nothing kept. */
type Destination = DestinationStream & { flush?(cb: (error?: Error) => void): void; flushSync?(): void };

function flushed(destination: Destination): Promise<void> {
  return new Promise((resolve) => {
    if (typeof destination.flush !== 'function') return resolve();
    const timer = setTimeout(() => {
      try {
        destination.flushSync?.();
      } finally {
        resolve();
      }
    }, FLUSH_WAIT_MS);
    destination.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Structured logs, one JSON object a line (`time`, `level`, `msg` and the caller's fields), written
 * by pino: to stdout (or `file`, appended, mode 600) asynchronously and in batches (BATCH_BYTES, or
 * FLUSH_EVERY_MS at the latest), so a request never waits for the log and a busy service makes one
 * write for many lines. Buffered lines are written at exit (pino's exit hook) and by `flush()`, which
 * the start script awaits after a fatal error and at a stop signal: only a kill -9 can lose the last
 * FLUSH_EVERY_MS of lines. Callers pass only fields that are safe to keep: ids, paths, statuses, timings. Never a body,
 * a header, a key, a token or card data.
 */
export function createLogger(options: { file?: string; level?: string; out?: Writable } = {}): Logger {
  if (options.level === 'silent') return { log() {}, enabled: () => false };
  const level = ['debug', 'info', 'warn', 'error', 'fatal'].includes(options.level ?? '') ? options.level! : 'info';
  const destination: Destination =
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
    flush: () => flushed(destination),
  };
}
