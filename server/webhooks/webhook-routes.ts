import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { idempotencyMiddleware } from '../http/idempotency.ts';
import { mount } from '../http/operation.ts';
import { limitedAuth } from '../http/rate-limit.ts';
import { ownerAuth } from '../events/owner-auth.ts';
import { requestOwner } from '../events/owner.ts';
import { endpointView } from './endpoints.ts';

/**
 * /v1/webhook_endpoints (create, list, retrieve, update, delete, rotate_secret, attempts), for the
 * same owners as the events: a merchant's licence key, a messaging user's access token. (POST
 * /v1/events/:id/retry is with the events' routes.)
 */
export function webhookRoutes(services: Pick<Services, 'webhooks' | 'merchants' | 'users' | 'idempotencyKeys'>, limiter: Middleware<AppState>): Router<AppState> {
  const { webhooks } = services;
  const { endpoints, deliveries } = webhooks;
  const router = new Router<AppState>();
  router.use('/v1/webhook_endpoints', limitedAuth(ownerAuth(services), limiter), idempotencyMiddleware(services.idempotencyKeys));
  const owner = (ctx: { state: AppState }) => requestOwner(ctx.state);
  mount(router, 'createWebhookEndpoint', ({ ctx, body }) => endpoints.create(owner(ctx), body));
  mount(router, 'listWebhookEndpoints', ({ ctx, query }) => endpoints.list(owner(ctx), query));
  mount(router, 'retrieveWebhookEndpoint', async ({ ctx, params }) => endpointView(await endpoints.own(owner(ctx), params.id)));
  mount(router, 'updateWebhookEndpoint', ({ ctx, params, body }) => webhooks.update(owner(ctx), params.id, body));
  mount(router, 'deleteWebhookEndpoint', ({ ctx, params }) => webhooks.delete(owner(ctx), params.id));
  mount(router, 'rotateWebhookEndpointSecret', ({ ctx, params }) => endpoints.rotate(owner(ctx), params.id));
  mount(router, 'listWebhookAttempts', ({ ctx, params, query }) => deliveries.attempts(owner(ctx), params.id, query));
  return router;
}
