import type { Context, Middleware } from 'koa';
import { IDEMPOTENCY_HEADER } from '../protocol/runtime/headers.ts';
import { cpeRoutes, errorAnswer, routeAt, type RouteName, type RouteOptions } from './cpe-routes.ts';
import { readJson } from './json-body.ts';

export { toSession, type PaymentIntentSession } from './cpe-routes.ts';

/** cpeMiddleware's options: the routes' hooks get Koa's `ctx`. */
export type MiddlewareOptions = RouteOptions<Context>;

/** What `router(prefix)` gives: `app.use(router.routes())`, as with @koa/router. */
export interface CpeRouter {
  /** Serves `POST <prefix>/attach`, `/confirm`, `/authorise`, `/verify-auth` and `/exchange` (another method: 405); other paths go on. */
  routes(): Middleware;
}

/**
 * Koa middleware for a merchant backend's middleware routes (for Express or any other framework,
 * `cpeNodeHandler`). Each handler reads `ctx.request.body` (your body parser's); `router(prefix)`
 * serves all five with its own JSON reading.
 */
export function cpeMiddleware(options: MiddlewareOptions) {
  const run = cpeRoutes(options);
  const handler =
    (route: RouteName): Middleware =>
    async (ctx) => {
      const read = await readJson(ctx.req, (ctx.request as { body?: unknown }).body);
      const answer = 'answer' in read ? read.answer : await run(route, read.body, ctx.get(IDEMPOTENCY_HEADER) || undefined, ctx);
      ctx.status = answer.status;
      ctx.body = answer.body;
    };
  return {
    attach: handler('attach'),
    confirm: handler('confirm'),
    authorise: handler('authorise'),
    verifyAuth: handler('verifyAuth'),
    exchange: handler('exchange'),
    /** All five under `prefix`: `app.use(cpe.router('/api/cpe').routes())`. */
    router(prefix = ''): CpeRouter {
      return {
        routes: () => async (ctx, next) => {
          const route = routeAt(ctx.path, prefix);
          if (!route) return next();
          if (ctx.method !== 'POST') {
            const refused = errorAnswer('method_not_allowed', `${ctx.method} is not allowed: POST`);
            ctx.status = refused.status;
            ctx.set('Allow', 'POST');
            ctx.body = refused.body;
            return;
          }
          await handler(route)(ctx, next);
        },
      };
    },
  };
}
