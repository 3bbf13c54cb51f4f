import type { Middleware } from 'koa';
import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import type { IdempotencyKeys } from '../idempotency/idempotency-keys.ts';
import { ApiError } from './api-error.ts';
import { asFormValues } from './parameters.ts';
import type { AppState } from './app-state.ts';
import type { Ctx } from './operation.ts';

/** Set on an answer that is a replay of the key's first one. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const KEY = /^[\x21-\x7e]{1,255}$/;

const handled = new WeakSet<object>();

const mismatch = () =>
  new ApiError('idempotency_key_reused', `This ${IDEMPOTENCY_HEADER} was already used with another request body; use a new key.`, IDEMPOTENCY_HEADER);

/**
 * `X-Idempotency-Key` on a POST (server/idempotency/idempotency-keys.ts has the rules): a repeat is
 * answered with the first answer and `Idempotent-Replayed: true`; the same key with another body is
 * a 409 idempotency_error. Keys are scoped per credential (`scopeOf`, after authentication; the
 * client's address without one).
 */
export function idempotencyMiddleware(keys: IdempotencyKeys, scopeOf: (ctx: Ctx) => string | undefined = (ctx) => ctx.state.rateKey): Middleware<AppState> {
  const keyed: Middleware<AppState> = async (ctx, next) => {
    const key = ctx.get(IDEMPOTENCY_HEADER);
    // Applied twice to one request (overlapping router paths), the inner one would wait for the outer.
    if (!key || handled.has(ctx.request)) return next();
    handled.add(ctx.request);
    if (!KEY.test(key))
      throw new ApiError('parameter_invalid', `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters.`, IDEMPOTENCY_HEADER);
    const claim = await keys.claim(scopeOf(ctx) ?? `ip:${ctx.ip}`, ctx.method, ctx.path, key, asFormValues(ctx.request.body ?? {}));
    if (claim.outcome === 'mismatch') throw mismatch();
    if (claim.outcome === 'replay') {
      ctx.status = claim.status;
      ctx.body = claim.body;
      ctx.set(REPLAYED_HEADER, 'true');
      return;
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError) await claim.settle(error.status, error.toBody(), error.type);
      else await claim.release();
      throw error;
    }
    await claim.settle(ctx.status, ctx.body);
  };
  // Only a POST is ever replayed: anything else goes straight on.
  return (ctx, next) => (ctx.method === 'POST' ? keyed(ctx, next) : next());
}
