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

/**
 * Field names never written whatever a caller passes (each at the top of a line or one level down):
 * a second guard behind the rule that callers pass only safe fields. Pino's redaction replaces them.
 */
const SECRET_FIELDS = ['authorization', 'cookie', 'password', 'secret', 'licenceKey', 'accessToken', 'sessionToken', 'session_token', 'card', 'cvc'];
const REDACT = { paths: SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]), censor: '[redacted]' };

/**
 * Structured logs, one JSON object a line (`time`, `level`, `msg` and the caller's fields), written
 * by pino: to stdout (or `file`, appended, mode 600) asynchronously, lines that come while a write is
 * under way going out together in the next one, so a request never waits for the log. Buffered lines
 * are written at exit (pino's exit hook) and by `flush()`, which the start script calls after a fatal
 * error. Callers pass only fields that are safe to keep: ids, paths, statuses, timings. Never a body,
 * a header, a key, a token or card data.
 */
export function createLogger(options: { file?: string; level?: string; out?: Writable } = {}): Logger {
  if (options.level === 'silent') return { log() {}, enabled: () => false };
  const level = ['debug', 'info', 'warn', 'error', 'fatal'].includes(options.level ?? '') ? options.level! : 'info';
  const destination: DestinationStream & { flushSync?(): void } =
    (options.out as DestinationStream | undefined) ??
    pino.destination({ dest: options.file ?? 1, sync: false, append: true, ...(options.file && { mode: 0o600 }) });
  const logger = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: REDACT,
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
