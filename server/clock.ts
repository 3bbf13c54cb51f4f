/**
 * The service's one source of time, in Unix seconds. Injected into every service, so a test moves
 * time (tokens expire, idempotency keys age out) instead of rewriting stored rows or sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };
