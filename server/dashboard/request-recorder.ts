import type { Middleware } from 'koa';
import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import type { AppState } from '../http/app-state.ts';
import { redact, redactText } from './redact.ts';
import type { RequestRecords, RequestSource } from './request-records.ts';

/** A body kept in the log at most this big (its JSON); a bigger one is summarised. */
const MAX_BODY_BYTES = 32 * 1024;

/** Which requests are the merchant's API requests, and from whom. The dashboard's own reads are not. */
function sourceOf(method: string, path: string): RequestSource | undefined {
  if (path.startsWith('/v1/')) return 'api';
  if (path === '/intent' || path.startsWith('/intent/') || path === '/frames/tokenise' || path.startsWith('/frames/wallet/')) return 'browser';
  if (path.startsWith('/dashboard/api/') && method !== 'GET' && method !== 'HEAD' && !/\/(sign-in|sign-out)$/.test(path)) return 'dashboard';
  return undefined;
}

/** A body as the log keeps it: JSON, redacted; too big, a list keeps its ids and anything else a note. */
export function keptBody(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  let value = body;
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    const text = body.toString();
    if (!text) return undefined;
    try {
      value = JSON.parse(text);
    } catch {
      return { note: 'not JSON', text: redactText(text.slice(0, 200)) };
    }
  } else if (typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  const kept = redact(value);
  const size = Buffer.byteLength(JSON.stringify(kept));
  if (size <= MAX_BODY_BYTES) return kept;
  const list = kept as { object?: unknown; data?: { id?: unknown }[]; has_more?: unknown };
  if (list.object === 'list' && Array.isArray(list.data))
    return { object: 'list', has_more: list.has_more, data: list.data.map((item) => ({ id: item?.id })), note: `${size} bytes: only the ids are kept` };
  return { note: `${size} bytes: not kept (over ${MAX_BODY_BYTES})` };
}

/**
 * Records each API request of a merchant for the dashboard's request log: method, path, query,
 * status, time, idempotency key and both bodies, redacted. Its own small store beside the service's
 * log lines (http/request-log.ts), which it does not change. Sits outside the error mapper, so it
 * sees the status and the error body the client got.
 */
export function requestRecorder(records: RequestRecords): Middleware<AppState> {
  return async (ctx, next) => {
    const source = sourceOf(ctx.method, ctx.path);
    if (!source || ctx.method === 'OPTIONS') return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const merchantId = ctx.state.merchantId;
      if (merchantId !== undefined) {
        const idempotencyKey = ctx.get(IDEMPOTENCY_HEADER);
        records.add({
          merchant_id: merchantId,
          request_id: ctx.state.requestId,
          source,
          method: ctx.method,
          path: ctx.path,
          ...(ctx.querystring ? { query: redactText(decodeSafely(ctx.querystring)) } : {}),
          status: ctx.status,
          ...(idempotencyKey ? { idempotency_key: idempotencyKey.slice(0, 255) } : {}),
          request_body: keptBody(ctx.request.body),
          response_body: keptBody(ctx.body),
          ms: Math.round(performance.now() - started),
        });
      }
    }
  };
}

function decodeSafely(query: string): string {
  try {
    return decodeURIComponent(query.replaceAll('+', ' '));
  } catch {
    return query;
  }
}
