import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { idempotencyMiddleware } from '../http/idempotency.ts';
import { mount } from '../http/operation.ts';
import { limitedAuth } from '../http/rate-limit.ts';
import { ownerAuth } from './owner-auth.ts';
import { requestOwner } from './owner.ts';

/**
 * GET /v1/events and /v1/events/:id: a merchant's payment events, a messaging user's messaging
 * events; POST /v1/events/:id/retry sends one to a webhook endpoint of the same owner now.
 */
export function eventRoutes(services: Pick<Services, 'events' | 'webhooks' | 'merchants' | 'users' | 'idempotencyKeys'>, limiter: Middleware<AppState>): Router<AppState> {
  const { events, webhooks } = services;
  const router = new Router<AppState>();
  router.use('/v1/events', limitedAuth(ownerAuth(services), limiter), idempotencyMiddleware(services.idempotencyKeys));
  mount(router, 'listEvents', ({ ctx, query }) => events.list(requestOwner(ctx.state), query), { keptListJson: true });
  mount(router, 'retrieveEvent', ({ ctx, params }) => events.get(requestOwner(ctx.state), params.id));
  mount(router, 'retryEvent', ({ ctx, params, body }) => webhooks.retry(requestOwner(ctx.state), params.id, body.endpoint));
  return router;
}
