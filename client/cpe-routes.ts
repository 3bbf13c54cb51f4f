import type { Answer, BodyIn } from '../api/operations.ts';
import type { PaymentIntentSession } from '../protocol/schemas/session.ts';
import { ERROR_CODES, type AttemptErrorCode, type ErrorCode } from '../api/error-codes.ts';
import type { CpeClient } from './cpe-client.ts';
import { CpeApiError, errorObject } from './transport.ts';

export type { PaymentIntentSession };

/**
 * What a merchant backend's middleware routes need, whatever the framework: `C` is what the
 * framework hands a route (Koa's `ctx`, Node's or Express's `req`), passed to your hooks.
 */
export interface RouteOptions<C> {
  client: CpeClient;
  /**
   * May this shopper act on this intent? Called before every forwarded request with the intent id
   * the SDK sent; anything but `true` is a 404, as for an absent intent. Required, and a missing one
   * refuses everything: without it, any visitor could authorise any intent id it learns. Tie intents
   * to your own session (keep the id in the shopper's session when you create it, as the demo does).
   */
  allowIntent(ctx: C, paymentIntentId: string | undefined): boolean | Promise<boolean>;
  /** Called with each intent `exchange` created, so you can tie it to the shopper (see allowIntent). */
  onCreated?(session: PaymentIntentSession, ctx: C): void | Promise<void>;
  /** Called with the verify result when a Flow reports the end of a payment: fulfil here, on `success`. */
  onVerified?(result: Answer<'verifyPaymentIntent'>, ctx: C): void | Promise<void>;
  /**
   * Checkout Context: turns the shopper's basket (the body the SDK posts to `middleware.exchange`)
   * into the creation input of a Payment Intent, validated and priced by you, at commit time. The
   * body's `context.amount` and `context.currency` (what the page showed) must equal the priced
   * input's, else the route answers 409 `context_mismatch` and creates nothing.
   */
  exchange?(body: unknown, ctx: C): BodyIn<'createPaymentIntent'> | Promise<BodyIn<'createPaymentIntent'>>;
}

/** The five routes, by the path each is served at (`/api/cpe/verify-auth`) and its handler's name. */
const MIDDLEWARE_ROUTES = { attach: 'attach', confirm: 'confirm', authorise: 'authorise', 'verify-auth': 'verifyAuth', exchange: 'exchange' } as const;
export type RouteName = (typeof MIDDLEWARE_ROUTES)[keyof typeof MIDDLEWARE_ROUTES];

/** The route served at `path` under `prefix` (`/api/cpe/verify-auth`: verifyAuth), if any; never a name every object has. */
export function routeAt(path: string, prefix: string): RouteName | undefined {
  const name = path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : '';
  return Object.hasOwn(MIDDLEWARE_ROUTES, name) ? MIDDLEWARE_ROUTES[name as keyof typeof MIDDLEWARE_ROUTES] : undefined;
}

/** A route's answer: the status and JSON body to send. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** The create result as the browser wants it (camel case), for a `createServerIntent` route. */
export const toSession = (created: { paymentIntentId: string; session_token: string; opaque_key: string }): PaymentIntentSession => ({
  paymentIntentId: created.paymentIntentId,
  sessionToken: created.session_token,
  opaqueKey: created.opaque_key,
});

/** An answer of a code of the table (api/error-codes.ts): its status, and the error object. */
export const errorAnswer = (code: Exclude<ErrorCode, AttemptErrorCode>, message: string, param: string | null = null): RouteAnswer => ({
  status: ERROR_CODES[code].status,
  body: { error: errorObject(code, message, param) },
});

/** The service's error as it answered; the service unreachable (no answer, status 0): a 502 that says so without detail (its address stays on the server). */
function answerError(failure: unknown): RouteAnswer {
  if (failure instanceof CpeApiError && failure.status !== 0) return { status: failure.status, body: { error: { type: failure.type, code: failure.code, message: failure.message, param: failure.param } } };
  return errorAnswer('service_unavailable', 'The payment service could not be reached.');
}

const intentIdOf = (body: unknown) => {
  const id = (body as { payment_intent_id?: unknown } | null)?.payment_intent_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The routes' logic, once for every framework: the SDK posts to them exactly the JSON body the
 * service's backend route of the same name takes, with `X-Idempotency-Key`; they forward it with
 * the licence key and the same key, and answer as the service did.
 */
export function cpeRoutes<C>(options: RouteOptions<C>): (route: RouteName, body: unknown, idempotencyKey: string | undefined, ctx: C) => Promise<RouteAnswer> {
  const { client } = options;
  // Deny unless the merchant says yes (a JavaScript caller may have left allowIntent out).
  const allowed = async (ctx: C, id: string | undefined) => typeof options.allowIntent === 'function' && (await options.allowIntent(ctx, id)) === true;
  const missing = (id: string | undefined) => errorAnswer('resource_missing', `No such payment intent: '${id}'`, 'payment_intent_id');

  const handlers: Record<RouteName, (body: unknown, idempotencyKey: string | undefined, ctx: C) => Promise<RouteAnswer>> = {
    attach: (body, idempotencyKey) => client.forward('attach', body, { idempotencyKey }),
    confirm: (body, idempotencyKey) => client.forward('confirm', body, { idempotencyKey }),
    authorise: (body, idempotencyKey) => client.forward('authorise', body, { idempotencyKey }),
    async verifyAuth(body, idempotencyKey, ctx) {
      const id = intentIdOf(body);
      const result = await client.verify({ payment_intent_id: id ?? '', unmask_fields: [] }, { idempotencyKey });
      await options.onVerified?.(result, ctx);
      return { status: 200, body: { status: result.status, intent_status: result.intent_status, verified: result.status === 'success' } };
    },
    async exchange(body, idempotencyKey, ctx) {
      if (!options.exchange) return errorAnswer('route_missing', 'Checkout Context exchange is not configured.');
      const input = await options.exchange(body, ctx);
      // What the shopper saw must be what the intent charges: else no intent, nothing charged.
      const shown = (body as { context?: { amount?: unknown; currency?: unknown } } | null)?.context;
      if (shown?.amount !== Number(input.amount) || String(shown?.currency).toUpperCase() !== String(input.currency).toUpperCase())
        return errorAnswer('context_mismatch', "The amount or currency shown is not the basket's price: reload the page.", 'context');
      const session = toSession(await client.createPaymentIntent(input, { idempotencyKey }));
      await options.onCreated?.(session, ctx);
      return { status: 200, body: session };
    },
  };

  return async (route, body, idempotencyKey, ctx) => {
    // Every route but exchange (which creates the intent) acts on an intent the merchant must allow.
    const id = intentIdOf(body);
    if (route !== 'exchange' && !(await allowed(ctx, id))) return missing(id);
    try {
      return await handlers[route](body, idempotencyKey, ctx);
    } catch (failure) {
      return answerError(failure);
    }
  };
}
