import type Router from '@koa/router';
import { TestEventBody, type AttemptRequestSent } from '../../api/dashboard.ts';
import { EventRetryRequest, type WebhookAttempt, WebhookAttemptListQuery, WebhookEndpointCreate, WebhookEndpointListQuery, WebhookEndpointUpdate } from '../../api/webhooks.ts';
import { merchantOwner } from '../events/owner.ts';
import { invalidParam } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { parseQuery, type Ctx } from '../http/operation.ts';
import type { Services } from '../services.ts';
import { USER_AGENT } from '../webhooks/deliverer.ts';
import { endpointView } from '../webhooks/endpoints.ts';
import { parsed } from './parsed.ts';

/**
 * The Webhooks pages' endpoints under /dashboard/api: the merchant's webhook endpoints and their
 * attempts, Retry and Send test event, through the same services (and so the same rules and answers)
 * as /v1/webhook_endpoints and POST /v1/events/:id/retry. Mounted behind the dashboard's session.
 */
export function dashboardWebhookRoutes(router: Router<AppState>, { webhooks, events }: Pick<Services, 'webhooks' | 'events'>, merchantOf: (ctx: Ctx) => number): void {
  const { endpoints, deliveries } = webhooks;
  const owner = (ctx: Ctx) => merchantOwner(merchantOf(ctx));

  router.get('/webhook_endpoints', async (ctx) => {
    ctx.body = await endpoints.list(owner(ctx), parsed(WebhookEndpointListQuery, parseQuery(ctx.querystring)));
  });
  router.post('/webhook_endpoints', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await endpoints.create(owner(ctx), parsed(WebhookEndpointCreate, ctx.request.body));
  });
  router.get('/webhook_endpoints/:id', async (ctx) => {
    ctx.body = endpointView(await endpoints.own(owner(ctx), ctx.params.id!));
  });
  router.post('/webhook_endpoints/:id', async (ctx) => {
    ctx.body = await webhooks.update(owner(ctx), ctx.params.id!, parsed(WebhookEndpointUpdate, ctx.request.body));
  });
  router.delete('/webhook_endpoints/:id', async (ctx) => {
    ctx.body = await webhooks.delete(owner(ctx), ctx.params.id!);
  });
  router.post('/webhook_endpoints/:id/rotate_secret', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await endpoints.rotate(owner(ctx), ctx.params.id!);
  });
  // Each attempt with the request it sent (its body is the event, as GET /events/:id answers it).
  router.get('/webhook_endpoints/:id/attempts', async (ctx) => {
    const page = await deliveries.attempts(owner(ctx), ctx.params.id!, parsed(WebhookAttemptListQuery, parseQuery(ctx.querystring)));
    ctx.body = { ...page, data: page.data.map((attempt) => ({ ...attempt, request: requestSent(attempt) })) };
  });

  // Send test event: the newest event of the type, to this endpoint only, now.
  router.post('/webhook_endpoints/:id/test', async (ctx) => {
    const { type } = parsed(TestEventBody, ctx.request.body);
    const endpoint = await endpoints.own(owner(ctx), ctx.params.id!);
    const [newest] = (await events.list(owner(ctx), { type, limit: 1 })).data;
    if (!newest) throw invalidParam('type', `You have no ${type} event yet to send: make one (a payment in your shop, or npm run -s trigger -- ${type}), then send it.`);
    ctx.body = await webhooks.retry(owner(ctx), newest.id, endpoint.id);
  });

  router.post('/events/:id/retry', async (ctx) => {
    ctx.body = await webhooks.retry(owner(ctx), ctx.params.id!, parsed(EventRetryRequest, ctx.request.body).endpoint);
  });
}

/**
 * What an attempt sent, as far as it is kept: the method, the URL and the headers (the timestamp and
 * signature are made at each send and not stored); the body is the event.
 */
function requestSent(attempt: WebhookAttempt): AttemptRequestSent {
  return {
    method: 'POST',
    url: attempt.url,
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'webhook-id': attempt.event },
    signed_headers: ['webhook-timestamp', 'webhook-signature'],
    body_event: attempt.event,
  };
}
