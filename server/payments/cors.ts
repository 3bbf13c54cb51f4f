import type { Middleware } from 'koa';
import { ApiError } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import type { Ctx } from '../http/operation.ts';
import { REPLAYED_HEADER } from '../http/idempotency.ts';
import { REQUEST_ID_HEADER } from '../http/request-log.ts';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';

const ALLOWED_HEADERS = [PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER, 'Content-Type', IDEMPOTENCY_HEADER].join(', ');

export interface CorsPolicy {
  /** May a preflight from this origin proceed? (A preflight carries no credentials.) */
  preflight(origin: string, ctx: Ctx): boolean | Promise<boolean>;
  /** May this request, with its credentials, be answered to this origin? */
  request(origin: string, ctx: Ctx): boolean | Promise<boolean>;
  /** The refusal of a request `request` said no to, naming what was seen, what was expected and the fix (server/http/origin-refusals.ts). */
  refusal?(origin: string, ctx: Ctx): ApiError | Promise<ApiError>;
}

/**
 * CORS for the browser-facing routes. An allowed origin gets `Access-Control-Allow-Origin` naming
 * it (never `*`) and `Vary: Origin`. A request whose Origin is not allowed is refused before it runs
 * (403), since a browser would otherwise perform it and only hide the answer. Requests without an
 * Origin (servers, curl) are not CORS and pass.
 */
export function cors(policy: CorsPolicy): { preflight: Middleware<AppState>; request: Middleware<AppState> } {
  const allow = (ctx: Ctx, origin: string) => {
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', `${REQUEST_ID_HEADER}, ${REPLAYED_HEADER}, Retry-After`);
  };
  return {
    preflight: async (ctx) => {
      ctx.vary('Origin');
      const origin = ctx.get('origin');
      ctx.status = 204;
      if (origin && (await policy.preflight(origin, ctx))) {
        allow(ctx, origin);
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        ctx.set('Access-Control-Max-Age', '600');
      }
    },
    request: async (ctx, next) => {
      ctx.vary('Origin');
      const origin = ctx.get('origin');
      if (origin) {
        if (!(await policy.request(origin, ctx)))
          throw (await policy.refusal?.(origin, ctx)) ?? new ApiError('origin_not_allowed', `Pages of origin ${origin} may not call ${ctx.method} ${ctx.path}.`);
        allow(ctx, origin);
      }
      return next();
    },
  };
}
