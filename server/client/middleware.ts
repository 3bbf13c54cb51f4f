import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { PaymentIntentCreate, VerifyResponse } from '../payments/schemas.ts';
import { IDEMPOTENCY_HEADER } from '../../protocol/headers.ts';
import type { PaymentIntentSession } from '../../protocol/session.ts';
import { CpeApiError, type CpeClient, type In } from './cpe-client.ts';

export type { PaymentIntentSession };

export interface MiddlewareOptions {
  client: CpeClient;
  /**
   * May this shopper act on this intent? Called before every forwarded request with the intent id
   * the SDK sent; anything but `true` is a 404, as for an absent intent. Required, and a missing one
   * refuses everything: without it, any visitor could authorise any intent id it learns. Tie intents
   * to your own session (keep the id in the shopper's session when you create it, as the demo does).
   */
  allowIntent(ctx: Context, paymentIntentId: string | undefined): boolean | Promise<boolean>;
  /** Called with each intent `exchange` created, so you can tie it to the shopper (see allowIntent). */
  onCreated?(session: PaymentIntentSession, ctx: Context): void | Promise<void>;
  /** Called with the verify result when a Flow reports the end of a payment: fulfil here, on `success`. */
  onVerified?(result: z.output<typeof VerifyResponse>, ctx: Context): void | Promise<void>;
  /**
   * Checkout Context: turns the shopper's basket (the body the SDK posts to `middleware.exchange`)
   * into the creation input of a Payment Intent, validated and priced by you, at commit time. The
   * body's `context.amount` and `context.currency` (what the page showed) must equal the priced
   * input's, else the route answers 409 `context_mismatch` and creates nothing.
   */
  exchange?(body: unknown, ctx: Context): In<typeof PaymentIntentCreate> | Promise<In<typeof PaymentIntentCreate>>;
}


/** The create result as the browser wants it (camel case), for a `createServerIntent` route. */
export const toSession = (created: { paymentIntentId: string; session_token: string; opaque_key: string }): PaymentIntentSession => ({
  paymentIntentId: created.paymentIntentId,
  sessionToken: created.session_token,
  opaqueKey: created.opaque_key,
});

function answerError(ctx: Context, error: unknown): void {
  if (error instanceof CpeApiError) {
    ctx.status = error.status;
    ctx.body = { error: { type: error.type, code: error.code, message: error.message, param: error.param } };
    return;
  }
  // The service could not be reached: say so without detail.
  ctx.status = 502;
  ctx.body = { error: { type: 'api_error', code: 'service_unavailable', message: 'The payment service could not be reached.', param: null } };
}

const intentIdOf = (body: unknown) => {
  const id = (body as { payment_intent_id?: unknown } | null)?.payment_intent_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Koa handlers for a merchant backend's middleware routes. The SDK posts to them exactly the JSON
 * body the service's backend route of the same name takes, with `X-Idempotency-Key`; they forward it
 * with the licence key and the same key, and answer as the service did.
 */
export function cpeMiddleware(options: MiddlewareOptions) {
  const { client } = options;
  const allowed = async (ctx: Context, id: string | undefined) => {
    // Deny unless the merchant says yes (a JavaScript caller may have left allowIntent out).
    if (typeof options.allowIntent === 'function' && (await options.allowIntent(ctx, id)) === true) return true;
    ctx.status = 404;
    ctx.body = { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment intent: '${id}'`, param: 'payment_intent_id' } };
    return false;
  };
  const forward = (operation: 'attach' | 'confirm' | 'authorise'): Middleware => async (ctx) => {
    const body = ctx.request.body;
    if (!(await allowed(ctx, intentIdOf(body)))) return;
    try {
      const answer = await client.forward(operation, body, { idempotencyKey: ctx.get(IDEMPOTENCY_HEADER) || undefined });
      ctx.status = answer.status;
      ctx.body = answer.body;
    } catch (error) {
      answerError(ctx, error);
    }
  };

  const verifyAuth: Middleware = async (ctx) => {
    const id = intentIdOf(ctx.request.body);
    if (!(await allowed(ctx, id))) return;
    try {
      const result = await client.verify({ payment_intent_id: id ?? '', unmask_fields: [] }, { idempotencyKey: ctx.get(IDEMPOTENCY_HEADER) || undefined });
      await options.onVerified?.(result, ctx);
      ctx.body = { status: result.status, intent_status: result.intent_status, verified: result.status === 'success' };
    } catch (error) {
      answerError(ctx, error);
    }
  };

  const exchange: Middleware = async (ctx) => {
    if (!options.exchange) {
      ctx.status = 404;
      ctx.body = { error: { type: 'invalid_request_error', code: 'route_missing', message: 'Checkout Context exchange is not configured.', param: null } };
      return;
    }
    try {
      const input = await options.exchange(ctx.request.body, ctx);
      // What the shopper saw must be what the intent charges: else no intent, nothing charged.
      const shown = (ctx.request.body as { context?: { amount?: unknown; currency?: unknown } } | null)?.context;
      if (shown?.amount !== Number(input.amount) || String(shown?.currency).toUpperCase() !== String(input.currency).toUpperCase()) {
        ctx.status = 409;
        ctx.body = { error: { type: 'invalid_request_error', code: 'context_mismatch', message: 'The amount or currency shown is not the basket\'s price: reload the page.', param: 'context' } };
        return;
      }
      const session = toSession(await client.createPaymentIntent(input, { idempotencyKey: ctx.get(IDEMPOTENCY_HEADER) || undefined }));
      await options.onCreated?.(session, ctx);
      ctx.body = session;
    } catch (error) {
      answerError(ctx, error);
    }
  };

  return {
    attach: forward('attach'),
    confirm: forward('confirm'),
    authorise: forward('authorise'),
    verifyAuth,
    exchange,
    /**
     * All five as a router with its own JSON body parser: `app.use(cpe.router('/api/cpe').routes())`
     * serves `/api/cpe/attach`, `/confirm`, `/authorise`, `/verify-auth` and `/exchange`.
     */
    router(prefix = '') {
      const router = new Router({ prefix });
      const json = bodyParser({ enableTypes: ['json'], jsonLimit: '64kb' });
      router.post('/attach', json, forward('attach'));
      router.post('/confirm', json, forward('confirm'));
      router.post('/authorise', json, forward('authorise'));
      router.post('/verify-auth', json, verifyAuth);
      router.post('/exchange', json, exchange);
      return router;
    },
  };
}
