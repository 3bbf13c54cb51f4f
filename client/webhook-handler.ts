import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventType, TypedEvent } from '../api/events.ts';
import { verifyWebhook, WebhookVerificationError, type VerifyOptions } from './webhook-verify.ts';

/** Event ids already handled: the handler skips a delivery it has seen (CPE delivers at least once). */
export interface WebhookDedupeStore {
  has(eventId: string): boolean | Promise<boolean>;
  add(eventId: string): void | Promise<void>;
}

/** The default store: the last `max` ids handled, in this process's memory (a database of yours survives restarts). */
export function memoryDedupeStore(max = 10_000): WebhookDedupeStore {
  const seen = new Set<string>();
  return {
    has: (id) => seen.has(id),
    add: (id) => {
      seen.add(id);
      if (seen.size > max) seen.delete(seen.values().next().value!);
    },
  };
}

/** A handler per event type, each given the event typed by its type. */
export type WebhookHandlers = { [K in EventType]?: (event: TypedEvent<K>) => unknown | Promise<unknown> };

export interface WebhookHandlerOptions extends VerifyOptions {
  /** The endpoint's `whsec_…` (or several, around a rotation). */
  secret: string | readonly string[];
  on: WebhookHandlers;
  /** Where handled event ids are kept; default memoryDedupeStore(). */
  store?: WebhookDedupeStore;
}

/** An answer: the status and its JSON body. */
interface Answer {
  status: number;
  body: unknown;
}

const refusal = (status: number, code: string, message: string): Answer => ({ status, body: { error: { type: 'invalid_request_error', code, message } } });

/** The body's bytes as received, at most 1 MiB (a CPE event is a few KiB). */
async function rawBodyOf(req: IncomingMessage, parsed: unknown): Promise<Buffer | string> {
  if (typeof parsed === 'string') return parsed;
  if (parsed instanceof Uint8Array) return Buffer.from(parsed.buffer, parsed.byteOffset, parsed.byteLength);
  if (parsed !== undefined)
    throw new Error(
      'cpeWebhookHandler needs the raw body, but a JSON body parser has read it already: mount the handler before it, or give this route express.raw({ type: "application/json" }) (Koa: @koa/bodyparser with rawBody).',
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1 << 20) throw new WebhookVerificationError('invalid_body', 'The body is over 1 MiB: not a CPE event.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Receives CPE's webhook deliveries: checks the signature (verifyWebhook), skips an event id already
 * handled, calls `on[event.type]` and answers 200 once it has returned (an unhandled type: 200 too);
 * a bad signature is a 400 (nothing runs), a handler that throws a 500 (CPE sends the event again
 * later, so do nothing twice: the id is kept only after success). Keep handlers short (queue long
 * work): CPE waits 10 s for the answer.
 *
 * The one function serves Koa (`router.post('/webhooks', handler)`), Express
 * (`app.post('/webhooks', handler)`, before express.json()) and node:http
 * (`http.createServer(handler)` or called with `(req, res)`).
 */
export function cpeWebhookHandler(options: WebhookHandlerOptions) {
  const store = options.store ?? memoryDedupeStore();
  const running = new Map<string, Promise<Answer>>();

  const handle = async (event: TypedEvent): Promise<Answer> => {
    if (await store.has(event.id)) return { status: 200, body: { received: true, duplicate: true } };
    const handler = options.on[event.type] as ((event: TypedEvent) => unknown) | undefined;
    if (handler) await handler(event);
    await store.add(event.id);
    return { status: 200, body: { received: true } };
  };

  const answer = async (method: string | undefined, rawBody: () => Promise<Buffer | string>, headers: Record<string, string | string[] | undefined>): Promise<Answer> => {
    if (method !== 'POST') return refusal(405, 'method_not_allowed', `${method} is not allowed: CPE posts its events.`);
    let event: TypedEvent;
    try {
      event = verifyWebhook(await rawBody(), headers, options.secret, options);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return refusal(400, error.code, error.message);
      throw error;
    }
    // The same event twice at once (a manual resend beside a retry): handled once, both answered alike.
    let run = running.get(event.id);
    if (!run) {
      run = handle(event).finally(() => running.delete(event.id));
      running.set(event.id, run);
    }
    try {
      return await run;
    } catch {
      return { status: 500, body: { error: { type: 'api_error', code: 'handler_failed', message: `The handler of ${event.type} failed: CPE will send ${event.id} again.` } } };
    }
  };

  /** Koa: `(ctx, next)`; Express and node:http: `(req, res, next?)`. */
  return async function cpeWebhook(first: any, second?: any, next?: (error?: unknown) => void): Promise<void> {
    if (first?.req && first?.res && first?.request) {
      const ctx = first;
      const result = await answer(ctx.method, () => rawBodyOf(ctx.req, ctx.request.rawBody ?? ctx.request.body), ctx.req.headers);
      ctx.status = result.status;
      ctx.body = result.body;
      return;
    }
    const req = first as IncomingMessage & { body?: unknown };
    const res = second as ServerResponse;
    try {
      const result = await answer(req.method, () => rawBodyOf(req, req.body), req.headers);
      res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(result.body));
    } catch (error) {
      if (typeof next === 'function') return next(error);
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { type: 'api_error', code: 'handler_misconfigured', message: (error as Error).message } }));
    }
  };
}
