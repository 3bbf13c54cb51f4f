/**
 * The service's one source of time, in Unix seconds. Injected into every service, so a test moves
 * time (tokens expire, idempotency keys age out) instead of rewriting stored rows or sleeping.
 */
export interface Clock {
  now(): number;
  /** Milliseconds, for what is scheduled finer than a second (webhook retries); now() × 1000 when absent. */
  nowMs?(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000), nowMs: () => Date.now() };

/** The clock's time in milliseconds. */
export const msNow = (clock: Clock): number => clock.nowMs?.() ?? clock.now() * 1000;

/** Time that moves only when told (Unix seconds): tests, and the service under CPE_TEST_CLOCK (test-clock.ts). */
export class ManualClock implements Clock {
  constructor(private seconds = Math.floor(Date.now() / 1000)) {}
  now(): number {
    return this.seconds;
  }
  advance(seconds: number): void {
    this.seconds += seconds;
  }
}
