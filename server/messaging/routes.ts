import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { idempotencyMiddleware } from '../http/idempotency.ts';
import { mount } from '../http/operation.ts';
import { limitedAuth } from '../http/rate-limit.ts';

/** The messaging API under /v1: contacts, conversations and their messages (api/routes.ts has their paths). */
export function messagingRoutes({ users, messaging, idempotencyKeys }: Pick<Services, 'users' | 'messaging' | 'idempotencyKeys'>, limiter: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  router.use(['/v1/contacts', '/v1/conversations'], limitedAuth(users.authenticate(), limiter), idempotencyMiddleware(idempotencyKeys));
  const user = (ctx: { state: AppState }) => ctx.state.userId!;
  // The lists are written from the kept JSON of their unchanging rows (json-text.ts).
  const kept = { keptListJson: true } as const;
  mount(router, 'listContacts', ({ ctx, query }) => messaging.listContacts(user(ctx), query), kept);
  mount(router, 'createContact', ({ ctx, body }) => messaging.createContact(user(ctx), body));
  mount(router, 'retrieveContact', ({ ctx, params }) => messaging.getContact(user(ctx), params.id));
  mount(router, 'updateContact', ({ ctx, params, body }) => messaging.updateContact(user(ctx), params.id, body));
  mount(router, 'deleteContact', ({ ctx, params }) => messaging.deleteContact(user(ctx), params.id));

  mount(router, 'listConversations', ({ ctx, query }) => messaging.listConversations(user(ctx), query), kept);
  mount(router, 'createConversation', ({ ctx, body }) => messaging.createConversation(user(ctx), body));
  mount(router, 'retrieveConversation', ({ ctx, params }) => messaging.getConversation(user(ctx), params.id));
  mount(router, 'updateConversation', ({ ctx, params, body }) => messaging.updateConversation(user(ctx), params.id, body));
  mount(router, 'deleteConversation', ({ ctx, params }) => messaging.deleteConversation(user(ctx), params.id));

  mount(router, 'listMessages', ({ ctx, params, query }) => messaging.listMessages(user(ctx), params.id, query), kept);
  mount(router, 'createMessage', ({ ctx, params, body }) => messaging.createMessage(user(ctx), params.id, body));
  return router;
}
