import type { Middleware } from 'koa';
import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import type { RequestRef, Store } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';
import type { Ctx } from './operation.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request as the events it causes name it: its Request-Id and idempotency key. */
export const requestRef = (ctx: Ctx): RequestRef => ({ id: ctx.state.requestId, idempotency_key: ctx.get(IDEMPOTENCY_HEADER) || null });

/**
 * The one place that makes a request a transaction (server/store/store.ts): a request that may change
 * data is one write transaction, its changes and whatever middleware such as idempotency recorded
 * beside them (and the events of its changes: server/events/), and is answered only once they are
 * durable. A refusal (an ApiError: a refused card still counts towards the lock) commits what it
 * recorded; an unexpected error rolls back where the engine can. A read is a read-only transaction,
 * answered only once everything it saw is durable, so no answer shows a write a crash could still
 * lose. Runs after the body is read, so a slow client holds no transaction open.
 */
export function durableWrites(store: Store): Middleware<AppState> {
  const commitOn = (error: unknown) => error instanceof ApiError;
  const read = { readOnly: true };
  return (ctx, next) => store.transaction(() => next(), READS.has(ctx.method) ? read : { commitOn, request: requestRef(ctx) });
}
