import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import qs from 'qs';
import { z } from 'zod';
import type { AppState } from './app-state.ts';
import { INHERITED, inheritedName, inheritedParam } from './body.ts';
import { listJson, type ListEnvelope } from './json-text.ts';
import { issueToError } from './zod-issues.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';
/** Who may call an operation; each maps to an OpenAPI security scheme. */
export type Auth = 'accessToken' | 'licenceKey' | 'session' | 'none';

export type Ctx = ParameterizedContext<AppState>;

export interface Operation<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, R extends z.core.$ZodType = z.core.$ZodType> {
  method: Method;
  /** Koa style: `/v1/contacts/:id`. */
  path: string;
  summary: string;
  tag: string;
  auth: Auth;
  body?: B;
  query?: Q;
  response: R;
  /**
   * The answer is a list envelope (listEnvelope) whose items the service declared unchanging
   * (json-text.ts): the page is written from their kept JSON text instead of serialised again.
   */
  keptListJson?: true;
  handler(input: { body: z.output<B>; query: z.output<Q>; params: Record<string, string>; ctx: Ctx }): Promise<z.input<R>> | z.input<R>;
}

/** The operations mounted on each router; the app that mounts the routers describes them (openapi.ts). */
const mounted = new WeakMap<object, Operation[]>();

/** Every operation of these routers, in mounting order. */
export const operationsOf = (routers: readonly object[]): Operation[] => routers.flatMap((router) => mounted.get(router) ?? []);

const noInput = z.strictObject({});

/** What Koa writes for `ctx.type = 'json'`, set directly (no MIME lookup per request). */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Limits of the query parser (qs): deeper brackets and further pairs are not read. */
const QS_OPTIONS = { depth: 2, parameterLimit: 100 } as const;

/** `limit=10&starting_after=ctc_1`: plain names, values with nothing to decode, no brackets. */
const PLAIN_QUERY = /^[A-Za-z0-9_]+=[A-Za-z0-9_.~-]*(?:&[A-Za-z0-9_]+=[A-Za-z0-9_.~-]*)*$/;

/**
 * The query string as qs parses it, refusing names Object.prototype has (see inheritedName). The
 * common plain query (a list page, a cursor) is split directly, which gives what qs gives for it;
 * anything else (brackets, escapes, `+`, repeated names, more than parameterLimit pairs) goes to qs.
 */
export function parseQuery(querystring: string): Record<string, unknown> {
  if (!querystring) return {};
  if (PLAIN_QUERY.test(querystring)) {
    const pairs = querystring.split('&');
    if (pairs.length <= QS_OPTIONS.parameterLimit) {
      const query: Record<string, string> = {};
      let repeated = false;
      for (const pair of pairs) {
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq);
        if (INHERITED.has(name)) throw inheritedParam(name);
        if (Object.hasOwn(query, name)) repeated = true;
        query[name] = pair.slice(eq + 1);
      }
      if (!repeated) return query;
    }
  }
  const inherited = inheritedName(querystring);
  if (inherited !== undefined) throw inheritedParam(inherited);
  return qs.parse(querystring, QS_OPTIONS);
}

/**
 * Mounts an operation on a router: the query and body are validated by their zod schemas (a 400
 * naming the field otherwise) and the handler's answer is the JSON response.
 */
export function mount<B extends z.ZodType, Q extends z.ZodType, R extends z.core.$ZodType>(
  router: Router<AppState>,
  operation: Operation<B, Q, R>,
): void {
  const operations = mounted.get(router) ?? [];
  mounted.set(router, operations);
  if (!operations.some((o) => o.method === operation.method && o.path === operation.path)) operations.push(operation as unknown as Operation);
  const bodySchema = operation.body ?? noInput;
  const querySchema = operation.query ?? noInput;
  router[operation.method](operation.path, async (ctx) => {
    const rawQuery = parseQuery(ctx.querystring);
    const query = querySchema.safeParse(rawQuery);
    if (!query.success) throw issueToError(query.error, rawQuery);
    let body: unknown = {};
    if (operation.method === 'post' || operation.method === 'put') {
      const input = ctx.request.body ?? {};
      const parsed = bodySchema.safeParse(input);
      if (!parsed.success) throw issueToError(parsed.error, input);
      body = parsed.data;
    }
    const result = await operation.handler({ body: body as z.output<B>, query: query.data as z.output<Q>, params: ctx.params, ctx });
    ctx.status = 200;
    if (operation.keptListJson) {
      // Written from the kept JSON of its unchanging rows: the same bytes and headers as JSON.stringify.
      ctx.set('Content-Type', JSON_TYPE);
      ctx.body = listJson(result as ListEnvelope);
    } else ctx.body = result;
  });
}
