import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { mount } from '../http/operation.ts';
import { limitedAuth } from '../http/rate-limit.ts';
import {
  Contact,
  ContactCreate,
  ContactList,
  ContactListQuery,
  ContactUpdate,
  Conversation,
  ConversationCreate,
  ConversationList,
  ConversationListQuery,
  ConversationUpdate,
  Deleted,
  Message,
  MessageCreate,
  MessageList,
  MessageListQuery,
} from './schemas.ts';

/** The messaging API under /v1: contacts, conversations and their messages. */
export function messagingRoutes({ users, messaging, idempotencyKeys }: Pick<Services, 'users' | 'messaging' | 'idempotencyKeys'>, limiter: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  router.use(['/v1/contacts', '/v1/conversations'], limitedAuth(users.authenticate(), limiter), idempotencyKeys.middleware());
  const user = (ctx: { state: AppState }) => ctx.state.userId!;
  const common = { auth: 'accessToken' as const };

  const contacts = { ...common, tag: 'Contacts' };
  mount(router, { ...contacts, method: 'get', path: '/v1/contacts', summary: 'List contacts, newest first', query: ContactListQuery, response: ContactList, keptListJson: true,
    handler: ({ ctx, query }) => messaging.listContacts(user(ctx), query) });
  mount(router, { ...contacts, method: 'post', path: '/v1/contacts', summary: 'Create a contact and its conversation', body: ContactCreate, response: Contact,
    handler: ({ ctx, body }) => messaging.createContact(user(ctx), body) });
  mount(router, { ...contacts, method: 'get', path: '/v1/contacts/:id', summary: 'Retrieve a contact', response: Contact,
    handler: ({ ctx, params }) => messaging.getContact(user(ctx), params.id) });
  mount(router, { ...contacts, method: 'put', path: '/v1/contacts/:id', summary: 'Update a contact (display_name only)', body: ContactUpdate, response: Contact,
    handler: ({ ctx, params, body }) => messaging.updateContact(user(ctx), params.id, body) });
  mount(router, { ...contacts, method: 'delete', path: '/v1/contacts/:id', summary: 'Delete a contact and its conversation', response: Deleted('contact'),
    handler: ({ ctx, params }) => messaging.deleteContact(user(ctx), params.id) });

  const conversations = { ...common, tag: 'Conversations' };
  mount(router, { ...conversations, method: 'get', path: '/v1/conversations', summary: 'List conversations, newest first', query: ConversationListQuery, response: ConversationList, keptListJson: true,
    handler: ({ ctx, query }) => messaging.listConversations(user(ctx), query) });
  mount(router, { ...conversations, method: 'post', path: '/v1/conversations', summary: 'Create a conversation with a contact or a group', body: ConversationCreate, response: Conversation,
    handler: ({ ctx, body }) => messaging.createConversation(user(ctx), body) });
  mount(router, { ...conversations, method: 'get', path: '/v1/conversations/:id', summary: 'Retrieve a conversation', response: Conversation,
    handler: ({ ctx, params }) => messaging.getConversation(user(ctx), params.id) });
  mount(router, { ...conversations, method: 'put', path: '/v1/conversations/:id', summary: 'Pin, mute, archive or restore a conversation, pin a message, mark it opened', body: ConversationUpdate, response: Conversation,
    handler: ({ ctx, params, body }) => messaging.updateConversation(user(ctx), params.id, body) });
  mount(router, { ...conversations, method: 'delete', path: '/v1/conversations/:id', summary: 'Delete a conversation and all its messages', response: Deleted('conversation'),
    handler: ({ ctx, params }) => messaging.deleteConversation(user(ctx), params.id) });

  const messages = { ...common, tag: 'Messages' };
  mount(router, { ...messages, method: 'get', path: '/v1/conversations/:id/messages', summary: 'List the messages of a conversation, newest first', query: MessageListQuery, response: MessageList, keptListJson: true,
    handler: ({ ctx, params, query }) => messaging.listMessages(user(ctx), params.id, query) });
  mount(router, { ...messages, method: 'post', path: '/v1/conversations/:id/messages', summary: 'Post a message; moves last_active_at of the conversation and its contact', body: MessageCreate, response: Message,
    handler: ({ ctx, params, body }) => messaging.createMessage(user(ctx), params.id, body) });
  return router;
}
