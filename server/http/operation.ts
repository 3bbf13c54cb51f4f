import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import qs from 'qs';
import { z } from 'zod';
import { operation as operationOf, type OperationName, type SCHEMAS } from '../../api/operations.ts';
import type { AppState } from './app-state.ts';
import { INHERITED, inheritedName, inheritedParam, QUERY_PARAMETER_LIMIT, refuseDroppedFields } from './body.ts';
import { listJson, type ListEnvelope } from './json-text.ts';
import { Recent } from './recent.ts';
import { issueToError } from './zod-issues.ts';

export type Ctx = ParameterizedContext<AppState>;

/** What a schema named `field` of an operation parses to; `{}` when the operation has none. */
type Parsed<S, F extends 'body' | 'query'> = S extends { [P in F]: infer T extends z.ZodType } ? z.output<T> : Record<string, never>;

/** An operation's handler: its parsed body and query, the path's parameters; it answers the response's input. */
export type Handler<K extends OperationName> = (input: {
  body: Parsed<(typeof SCHEMAS)[K], 'body'>;
  query: Parsed<(typeof SCHEMAS)[K], 'query'>;
  params: Record<string, string>;
  ctx: Ctx;
}) => Promise<z.input<(typeof SCHEMAS)[K]['response']>> | z.input<(typeof SCHEMAS)[K]['response']>;

/** The operations mounted on each router, by name (the app checks that it serves the whole table). */
const mounted = new WeakMap<object, Set<OperationName>>();

/** Every operation these routers serve. */
export const mountedOperations = (routers: readonly object[]): Set<OperationName> => new Set(routers.flatMap((router) => [...(mounted.get(router) ?? [])]));

const noInput = z.strictObject({});

/** Limits of the query parser (qs): deeper brackets are not read; more pairs are refused (refuseDroppedFields). */
const QS_OPTIONS = { depth: 2, parameterLimit: QUERY_PARAMETER_LIMIT } as const;

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
  refuseDroppedFields(querystring, QS_OPTIONS.parameterLimit, 'query string');
  const inherited = inheritedName(querystring);
  if (inherited !== undefined) throw inheritedParam(inherited);
  return qs.parse(querystring, QS_OPTIONS);
}

/**
 * Valid queries of an operation by their query string, parsed and frozen: the result is a function
 * of the string alone, and a list is asked for with the same few strings again and again. Only plain
 * ones (PLAIN_QUERY, or none) parsed to plain values (shared, so nothing in them may change); bounded.
 */
function queryReader(schema: z.ZodType): (querystring: string) => unknown {
  const known = new Recent<string, unknown>(1_000);
  return (querystring) => {
    const hit = known.get(querystring);
    if (hit !== undefined) return hit;
    const rawQuery = parseQuery(querystring);
    const query = schema.safeParse(rawQuery);
    if (!query.success) throw issueToError(query.error, rawQuery);
    const data = Object.freeze(query.data);
    if ((!querystring || PLAIN_QUERY.test(querystring)) && Object.values(data).every((value) => value === null || typeof value !== 'object')) known.set(querystring, data);
    return data;
  };
}

/** What Koa writes for `ctx.type = 'json'`, set directly (no MIME lookup per request). */
const JSON_TYPE = 'application/json; charset=utf-8';

export interface MountOptions {
  /**
   * The answer is a list envelope (listEnvelope) whose items the service declared unchanging
   * (json-text.ts): the page is written from their kept JSON text instead of serialised again.
   */
  keptListJson?: true;
}

/**
 * Mounts the operation of the table (api/) named `name` on a router: the query and body are
 * validated by its zod schemas (a 400 naming the field otherwise) and the handler's answer is the
 * JSON response.
 */
export function mount<K extends OperationName>(router: Router<AppState>, name: K, handler: Handler<K>, { keptListJson }: MountOptions = {}): void {
  const names = mounted.get(router) ?? new Set();
  mounted.set(router, names.add(name));
  const operation = operationOf(name);
  const bodySchema = operation.body ?? noInput;
  const readQuery = queryReader(operation.query ?? noInput);
  router[operation.method](operation.path, async (ctx) => {
    const query = readQuery(ctx.querystring);
    let body: unknown = {};
    if (operation.method === 'post' || operation.method === 'put') {
      const input = ctx.request.body ?? {};
      const parsed = bodySchema.safeParse(input);
      if (!parsed.success) throw issueToError(parsed.error, input);
      body = parsed.data;
    }
    const result = await handler({ body, query, params: ctx.params, ctx } as Parameters<Handler<K>>[0]);
    ctx.status = 200;
    if (keptListJson) {
      // Written from the kept JSON of its unchanging rows: the same bytes and headers as JSON.stringify.
      ctx.set('Content-Type', JSON_TYPE);
      ctx.body = listJson(result as ListEnvelope);
    } else ctx.body = result;
  });
}
