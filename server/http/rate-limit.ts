import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';

export interface RateLimitOptions {
  /** Sustained requests per second per key; 0 turns the limiter off. */
  perSecond: number;
  /** Requests allowed in a burst above the sustained rate. */
  burst: number;
}

/** Keys the table remembers; past this the least recently seen key is forgotten (its bucket refills). */
export const RATE_LIMIT_KEYS = 100_000;

const limited = (wait: number) =>
  new ApiError('rate_limited', `Too many requests: retry after ${wait} s.`, null, {
    'Retry-After': String(wait),
  });

/**
 * A token bucket per key (a credential, or the client address while none is known). Over the limit
 * the answer is 429 with Retry-After, in whole seconds, as HTTP asks. The table is bounded and evicts
 * the least recently used key, so a busy client is never forgotten because quieter ones came later.
 * When the engine shares its budgets between processes (`ctx.state.rateBuckets`: PostgreSQL), the
 * bucket is the database's, one per key for all processes, instead of this process's table.
 */
export function rateLimit(
  { perSecond, burst }: RateLimitOptions,
  keyOf: (state: AppState, ip: string) => string,
  { maxKeys = RATE_LIMIT_KEYS, now = () => performance.now() / 1000 }: { maxKeys?: number; now?: () => number } = {},
): Middleware<AppState> {
  // A Map iterates in insertion order: re-inserting a key on each use keeps the oldest-used first.
  const buckets = new Map<string, { tokens: number; at: number }>();
  // Turned off: nothing to count, not even an async frame per request.
  if (perSecond <= 0) return (_ctx, next) => next();
  return async (ctx, next) => {
    const key = keyOf(ctx.state, ctx.ip);
    const shared = ctx.state.rateBuckets;
    if (shared) {
      const taken = await shared.take(key, perSecond, burst);
      if (!taken.allowed) throw limited(taken.retryAfter);
      return next();
    }
    const at = now();
    const bucket = buckets.get(key) ?? { tokens: burst, at };
    bucket.tokens = Math.min(burst, bucket.tokens + (at - bucket.at) * perSecond);
    bucket.at = at;
    buckets.delete(key);
    buckets.set(key, bucket);
    if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      throw limited(Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)));
    }
    bucket.tokens -= 1;
    return next();
  };
}

/** The `next` of the authenticate step inside limitedAuth: what follows runs after the limiter. */
const authenticated = async () => {};

/**
 * Authentication, then the limiter, then the refusal of a bad credential: the limiter counts every
 * request, keyed by its credential once `authenticate` has found a valid one and by the client's
 * address otherwise, so a flood of bad or guessed credentials is answered 429 like any other flood.
 * `authenticate` is an ordinary auth middleware (it throws a 401, or sets state and calls next).
 */
export function limitedAuth(authenticate: Middleware<AppState>, limiter: Middleware<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    let refusal: ApiError | undefined;
    try {
      await authenticate(ctx, authenticated);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refusal = error;
      ctx.state.rateKey = undefined;
    }
    return limiter(ctx, () => {
      if (refusal) throw refusal;
      return next();
    });
  };
}
