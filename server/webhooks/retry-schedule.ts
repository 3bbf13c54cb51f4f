/** How long a receiver has to answer an attempt (CPE_WEBHOOK_TIMEOUT_MS). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** The default retry schedule: the delays after each failed attempt (Standard Webhooks' and Svix's). */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m,2h` as milliseconds; a clear error for anything else (CPE_WEBHOOK_RETRY_SCHEDULE). */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`CPE_WEBHOOK_RETRY_SCHEDULE is a list of delays such as ${DEFAULT_RETRY_SCHEDULE} (units ms, s, m, h, d), got '${text}'.`);
    return Math.round(Number(match[1]) * UNITS[match[2]]);
  });
  if (delays.length > 20) throw new Error(`CPE_WEBHOOK_RETRY_SCHEDULE has at most 20 delays, got ${delays.length}.`);
  return delays;
}

/** How much later than its schedule a retry may go: up to a tenth, so endpoints that failed together do not retry together. */
export const JITTER = 0.1;

/** The delay before the retry after the `failed`th failed scheduled attempt, jittered; undefined when none is left. */
export function retryDelay(schedule: readonly number[], failed: number, random = Math.random): number | undefined {
  const delay = schedule[failed - 1];
  return delay === undefined ? undefined : Math.round(delay * (1 + JITTER * random()));
}
