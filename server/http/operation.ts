import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import qs from 'qs';
import { z } from 'zod';
import type { AppState } from './app-state.ts';
import { inheritedName, inheritedParam } from './body.ts';
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
  /** Extra answers worth documenting beyond the error object of every 4xx. */
  handler(input: { body: z.output<B>; query: z.output<Q>; params: Record<string, string>; ctx: Ctx }): Promise<z.input<R>> | z.input<R>;
}

/** The operations mounted on each router; the app that mounts the routers describes them (openapi.ts). */
const mounted = new WeakMap<object, Operation[]>();

/** Every operation of these routers, in mounting order. */
export const operationsOf = (routers: readonly object[]): Operation[] => routers.flatMap((router) => mounted.get(router) ?? []);

const noInput = z.strictObject({});

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
    const inherited = ctx.querystring ? inheritedName(ctx.querystring) : undefined;
    if (inherited !== undefined) throw inheritedParam(inherited);
    const rawQuery = qs.parse(ctx.querystring, { depth: 2, parameterLimit: 100 });
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
    ctx.body = result;
  });
}
