import type { IncomingMessage, ServerResponse } from 'node:http';
import { IDEMPOTENCY_HEADER } from '../protocol/runtime/headers.ts';
import { cpeRoutes, errorAnswer, routeAt, type RouteOptions } from './cpe-routes.ts';
import { readJson } from './json-body.ts';

/** cpeNodeHandler's options: the routes' hooks get the request (`req`); `prefix` is where the five routes are served. */
export interface NodeHandlerOptions<Req extends IncomingMessage = IncomingMessage> extends RouteOptions<Req> {
  /** `'/api/cpe'` serves `/api/cpe/attach`…; default `''` (Express strips the path you mount it at). */
  prefix?: string;
}

/**
 * The middleware routes as a plain Node handler, `(req, res, next?)`, for Express, Fastify's
 * middie, Next.js API routes, `http.createServer` or any framework that hands over Node's request
 * and response: `POST <prefix>/attach`, `/confirm`, `/authorise`, `/verify-auth` and `/exchange`,
 * as `cpeMiddleware` serves them for Koa. A body already parsed (`express.json()`) is used; else
 * the JSON body is read here. Another path calls `next()` (or answers 404 without it).
 *
 *   app.use('/api/cpe', cpeNodeHandler({ client, allowIntent: (req, id) => req.session.intents.includes(id) }));
 */
export function cpeNodeHandler<Req extends IncomingMessage = IncomingMessage>(options: NodeHandlerOptions<Req>) {
  const run = cpeRoutes(options);
  const prefix = options.prefix ?? '';
  return async (req: Req, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://merchant.invalid').pathname;
    const route = routeAt(path, prefix);
    const send = ({ status, body }: { status: number; body: unknown }, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, message: string) => ({ status, body: { error: { type: 'invalid_request_error', code, message, param: null } } });
    if (!route) return next ? next() : send(error(404, 'route_missing', `No route ${path}.`));
    if (req.method !== 'POST') return send(error(405, 'method_not_allowed', `${req.method} is not allowed: POST`), { allow: 'POST' });
    try {
      const read = await readJson(req, (req as { body?: unknown }).body);
      const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
      send('answer' in read ? read.answer : await run(route, read.body, typeof key === 'string' && key ? key : undefined, req));
    } catch (failure) {
      // A throw of your own hooks (allowIntent): the framework's error handler, or a bare 500.
      if (next) next(failure);
      else send(errorAnswer('internal_error', 'The merchant backend failed.'));
    }
  };
}
