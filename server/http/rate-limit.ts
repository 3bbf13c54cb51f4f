import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';

export interface RateLimitOptions {
  /** Sustained requests per second per key; 0 turns the limiter off. */
  perSecond: number;
  /** Requests allowed in a burst above the sustained rate. */
  burst: number;
}

/**
 * A token bucket per credential (or per client address before one is known). Over the limit the
 * answer is 429 with Retry-After, in whole seconds, as HTTP asks.
 */
export function rateLimit({ perSecond, burst }: RateLimitOptions, keyOf: (state: AppState, ip: string) => string): Middleware<AppState> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return async (ctx, next) => {
    if (perSecond <= 0) return next();
    const key = keyOf(ctx.state, ctx.ip);
    const now = performance.now() / 1000;
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perSecond);
    bucket.at = now;
    buckets.set(key, bucket);
    if (buckets.size > 100_000) buckets.delete(buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      throw new ApiError(429, 'rate_limit_error', 'rate_limited', `Too many requests: retry after ${wait} s.`, null, {
        'Retry-After': String(wait),
      });
    }
    bucket.tokens -= 1;
    return next();
  };
}
