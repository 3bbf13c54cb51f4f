/**
 * Waiting for something to happen, with a deadline: never for a fixed time. Prefer the event itself
 * (a child's message or line: processes.ts; an element or a page event in Playwright; `oneEvent`
 * in web-test-runner); `waitFor` polls a condition only where nothing announces it (a row another
 * process writes, a file). Every limit is scaled by CPE_TEST_TIME_SCALE (time.ts).
 */
import { scaled } from './time.ts';

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** `promise`, or a TimeoutError naming `what` after `ms` (scaled); a function names it as it is then (the step a test had reached). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  const limit = scaled(ms);
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${typeof what === 'function' ? what() : what}: nothing within ${limit} ms`)), limit);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface WaitOptions {
  /** The deadline, before scaling (default 30 s: a failure detector, generous for a busy machine). */
  timeoutMs?: number;
  /** Between two checks (default 50 ms): the condition is polled only because nothing announces it. */
  everyMs?: number;
  /** Called before each check: a string (why waiting is pointless, e.g. "the child exited") fails at once. */
  abortIf?: () => string | undefined;
  /** Appended to the error (e.g. a child's output). */
  context?: () => string;
}

/**
 * Checks `check` until it returns something other than `undefined` or `false` (an exception counts
 * as "not yet"), and resolves with it; rejects with `what`, the last exception and the context at
 * the deadline.
 */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions = {}): Promise<T> {
  const limit = scaled(options.timeoutMs ?? 30_000);
  const deadline = Date.now() + limit;
  let last: unknown;
  for (;;) {
    const aborted = options.abortIf?.();
    if (aborted) throw new Error(`${what}: ${aborted}${options.context ? `\n${options.context()}` : ''}`);
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new TimeoutError(`${what}: not within ${limit} ms${last ? ` (last: ${(last as Error).message ?? last})` : ''}${options.context ? `\n${options.context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
