import type { Middleware } from 'koa';
import { ApiError, noSuchRoute } from './api-error.ts';
import type { AppState } from './app-state.ts';

/** Status codes raised by Koa's helpers (body parser, router), as the contract's error objects. */
function fromHttpError(error: { status: number; type?: string; message?: string }): ApiError {
  switch (error.status) {
    case 413:
      return new ApiError('request_too_large', 'The request body is too large.');
    case 415:
      return new ApiError('unsupported_media_type', error.message ?? 'Unsupported media type.');
    case 400:
      return new ApiError('body_invalid', 'The request body could not be parsed: send a JSON object or form fields.');
    default:
      return new ApiError('request_invalid', 'The request could not be processed.');
  }
}

/**
 * The single error mapper: first in the chain, it turns every failure into the contract's error
 * object. Nothing but an ApiError's own message ever leaves; unexpected errors are logged with
 * their stack on the server and answered with a bare 500.
 */
export function errorMapper(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw noSuchRoute(ctx.method, ctx.path);
        // The router answers 501 to a method it never routes (TRACE…); for the client it is the same
        // mistake as any other method the path does not take: 405 with Allow, or 404 with no route.
        if (ctx.status === 405 || ctx.status === 501) {
          const allow = ctx.response.get('Allow');
          if (!allow) throw noSuchRoute(ctx.method, ctx.path);
          throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}.`, null, { Allow: allow });
        }
      }
    } catch (caught) {
      const raw = caught as { status?: number; expose?: boolean };
      let error: ApiError;
      if (caught instanceof ApiError) error = caught;
      else if (typeof raw?.status === 'number' && raw.status >= 400 && raw.status < 500) error = fromHttpError(raw as { status: number });
      else {
        error = new ApiError('internal_error', 'An unexpected error occurred. It has been logged.');
        ctx.app.emit('error', caught, ctx);
      }
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.toBody();
    }
  };
}
