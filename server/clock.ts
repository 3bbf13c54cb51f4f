/**
 * The service's one source of time, in Unix seconds. Injected into every service, so a test moves
 * time (tokens expire, idempotency keys age out) instead of rewriting stored rows or sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

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
