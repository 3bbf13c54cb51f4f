/** How long to wait between tries of something that failed: the first wait and the longest. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/**
 * The wait before try `n` + 1 after `n` failures in a row (n ≥ 1): doubling from `initialMs`, at most
 * `maxMs`, jittered (× 0.5 to 1, so processes that failed together do not retry together), and never
 * below `initialMs`. Used by the workers' restarts and the wait for the database.
 */
export function backoffMs(n: number, { initialMs, maxMs }: Backoff, random: () => number = Math.random): number {
  const exponential = Math.min(initialMs * 2 ** Math.max(0, n - 1), maxMs);
  return Math.round(Math.max(initialMs, exponential * (0.5 + random() / 2)));
}
