import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './app-state.ts';

/** The response header that names the request, as its log line does. */
export const REQUEST_ID_HEADER = 'Request-Id';

/** One line per request: method, path (never the query or body), status, time, the client address (client-address.ts). */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    ctx.state.requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    ctx.set(REQUEST_ID_HEADER, ctx.state.requestId);
    try {
      await next();
    } finally {
      // A 503 is the service's deliberate answer while its database is away (logged once, as an outage).
      const level = ctx.status >= 500 ? (ctx.status === 503 ? 'warn' : 'error') : 'info';
      if (logger.enabled?.(level) !== false)
        logger.log(level, 'request', {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ip: ctx.ip,
          ...(ctx.state.userId ? { user: ctx.state.userId } : {}),
          ...(ctx.state.merchantId ? { merchant: ctx.state.merchantId } : {}),
        });
    }
  };
}
