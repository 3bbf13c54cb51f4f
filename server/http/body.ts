import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';

const LIMIT = '64kb';

/**
 * Parses JSON and form bodies (brackets nest, `billTo[firstname]=Ada`, as Stripe clients send them).
 * A body of any other type is a 415 rather than being silently ignored.
 */
export function body(): Middleware<AppState> {
  const parse = bodyParser({ enableTypes: ['json', 'form'], jsonLimit: LIMIT, formLimit: LIMIT, jsonStrict: true });
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && ['POST', 'PUT', 'PATCH'].includes(ctx.method) && !ctx.is('json', 'urlencoded')) {
      throw new ApiError(
        415,
        'invalid_request_error',
        'unsupported_media_type',
        `Unsupported Content-Type '${ctx.get('content-type') || '(none)'}': send application/json or application/x-www-form-urlencoded.`,
      );
    }
    return parse(ctx, next);
  };
}
