import Router from '@koa/router';
import type { Middleware } from 'koa';
import { PUBLIC_KEY_HEADER } from '../../protocol/runtime/headers.ts';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { ROUTES } from '../../api/routes.ts';
import { idempotencyMiddleware } from '../http/idempotency.ts';
import { mount, type Ctx } from '../http/operation.ts';
import { noSuch } from '../http/api-error.ts';
import { ownOriginOnly, pageOriginRefused } from '../http/origin-refusals.ts';
import { limitedAuth } from '../http/rate-limit.ts';
import type { CardTestingLimits } from './card-testing.ts';
import { cors } from './cors.ts';
import { licenceKeyAuth, sessionAuth, sessionIntentId } from './payment-auth.ts';

/** Runs a middleware for every method but OPTIONS, which the preflight route answers alone. */
const exceptPreflight =
  (middleware: Middleware<AppState>): Middleware<AppState> =>
  (ctx, next) =>
    ctx.method === 'OPTIONS' ? next() : middleware(ctx, next);

const merchantOf = (ctx: Ctx) => ctx.state.merchantId!;

/**
 * Backend routes under /v1/payment_intents (licence key): create, list, retrieve, update, attach,
 * confirm, authorise, capture, cancel, verify; /v1/refunds; and POST /v1/tokens. Handlers only call
 * the service; it alone moves statuses.
 */
export function backendPaymentRoutes(
  { idempotencyKeys, merchants, payments }: Pick<Services, 'idempotencyKeys' | 'merchants' | 'payments'>,
  limiter: Middleware<AppState>,
  cardTesting: CardTestingLimits,
): Router<AppState> {
  const router = new Router<AppState>();
  const licenceKey = limitedAuth(licenceKeyAuth(merchants), limiter);
  router.use('/v1/payment_intents', licenceKey, idempotencyMiddleware(idempotencyKeys));
  router.use('/v1/refunds', licenceKey, idempotencyMiddleware(idempotencyKeys));
  router.use('/v1/tokens', licenceKey, cardTesting.perMerchant, idempotencyMiddleware(idempotencyKeys));

  // Raw card data from a server, as Stripe allows it in test mode only: for server-side tests and the
  // README's command-line payment. Browsers tokenise in the hosted frames (/frames/tokenise).
  mount(router, 'createToken', ({ ctx, body }) => payments.createToken(merchantOf(ctx), body.card));

  mount(router, 'createPaymentIntent', ({ ctx, body }) => payments.create(merchantOf(ctx), body));
  mount(router, 'listPaymentIntents', ({ ctx, query }) => payments.list(merchantOf(ctx), query));
  mount(router, 'retrievePaymentIntent', ({ ctx, params }) => payments.get(merchantOf(ctx), params.id));
  mount(router, 'attachPaymentIntent', ({ ctx, body }) => payments.attach(merchantOf(ctx), body.payment_intent_id, body));
  mount(router, 'confirmPaymentIntent', ({ ctx, body }) => payments.confirm(merchantOf(ctx), body.payment_intent_id, null));
  mount(router, 'authorisePaymentIntent', ({ ctx, body }) => payments.authorise(merchantOf(ctx), body.payment_intent_id));
  mount(router, 'capturePaymentIntent', ({ ctx, body }) => payments.capture(merchantOf(ctx), body.payment_intent_id, body.amount));
  mount(router, 'cancelPaymentIntent', ({ ctx, body }) => payments.cancel(merchantOf(ctx), body.payment_intent_id, body.cancellation_reason));
  mount(router, 'verifyPaymentIntent', ({ ctx, body }) => payments.verify(merchantOf(ctx), body.payment_intent_id, body.unmask_fields));
  // After attach, confirm… (mounted above): those paths would match /v1/payment_intents/:id too.
  mount(router, 'updatePaymentIntent', ({ ctx, params, body }) => payments.update(merchantOf(ctx), params.id, body));

  mount(router, 'createRefund', ({ ctx, body }) => payments.refund(merchantOf(ctx), body));
  mount(router, 'listRefunds', ({ ctx, query }) => payments.listRefunds(merchantOf(ctx), query));
  mount(router, 'retrieveRefund', ({ ctx, params }) => payments.getRefund(merchantOf(ctx), params.id));
  return router;
}

/**
 * Session-backed routes for the SDK in direct mode (public key + session token), with CORS for the
 * merchant's allowed origins; and the hosted frames' tokenise route, which answers the service's own
 * pages only (no CORS at all: the frames call it same-origin). The session token is bound to its
 * intent: a body may omit payment_intent_id.
 */
export function browserPaymentRoutes(services: Services, limiter: Middleware<AppState>, cardTesting: CardTestingLimits): Router<AppState> {
  const { idempotencyKeys, merchants, payments, config } = services;
  const router = new Router<AppState>();
  const keyOf = (ctx: Ctx) => merchants.byKey(ctx.get(PUBLIC_KEY_HEADER), 'public');

  const merchantCors = cors({
    preflight: (origin) => merchants.anyAllows(origin),
    request: async (origin, ctx) => {
      const merchant = await keyOf(ctx);
      return merchant ? merchant.origins.includes(origin) : merchants.anyAllows(origin);
    },
    refusal: async (origin, ctx) => pageOriginRefused(origin, (await keyOf(ctx))?.origins),
  });
  // Card data reaches the service only from its own frames (a page script, even the merchant's, never
  // calls this); a server tokenises test cards with POST /v1/tokens.
  const framesOnly = ownOriginOnly(() => config.publicUrl, {
    code: 'frames_only',
    refused: 'POST /frames/tokenise answers the service\'s hosted frames only',
    instead: 'From your server, in test mode, create a card token with POST /v1/tokens and your licence key (as the README shows).',
  });

  const intentPaths = [ROUTES.retrieveSessionIntent, ROUTES.attachSessionIntent, ROUTES.confirmSessionIntent, ROUTES.authoriseSessionIntent].map((route) => route.path);
  for (const path of intentPaths) router.options(path, merchantCors.preflight);
  // One prefix: a list of overlapping paths would run the middleware twice for /intent/attach.
  router.use('/intent', ...[merchantCors.request, limitedAuth(sessionAuth(merchants, payments), limiter), idempotencyMiddleware(idempotencyKeys)].map(exceptPreflight));
  // Every attempt counts against its address, refused or not; then the frames-only check, the
  // session, and the session's and merchant's budgets (card-testing.ts).
  router.use('/frames/tokenise', ...[cardTesting.perAddress, framesOnly, sessionAuth(merchants, payments), cardTesting.perSession, cardTesting.perMerchant, idempotencyMiddleware(idempotencyKeys)].map(exceptPreflight));

  // Asked by the SDK before it mounts a frame, from any page: a simple GET (no preflight) whose
  // answer concerns only that key and the asking Origin, so any origin may read it.
  router.use('/v1/public_keys', limiter, async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  mount(router, 'checkPublicKey', async ({ ctx, params }) => {
    const merchant = /^pk_/.test(params.key) ? await merchants.byKey(params.key, 'public') : undefined;
    if (!merchant) throw noSuch('public key', params.key, 'key');
    const origin = ctx.get('origin') || null;
    return { object: 'public_key' as const, livemode: false, origin, origin_allowed: origin !== null && merchant.origins.includes(origin) };
  });

  const intentOf = (ctx: Ctx, named?: string) => sessionIntentId(ctx, named);
  const pageOrigin = (ctx: Ctx) => ctx.get('origin') || null;

  mount(router, 'retrieveSessionIntent', ({ ctx }) => payments.sessionView(merchantOf(ctx), intentOf(ctx)));
  mount(router, 'attachSessionIntent', ({ ctx, body }) => payments.attach(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), body));
  mount(router, 'confirmSessionIntent', ({ ctx, body }) => payments.confirm(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), pageOrigin(ctx)));
  mount(router, 'authoriseSessionIntent', ({ ctx, body }) => payments.authorise(merchantOf(ctx), intentOf(ctx, body.payment_intent_id)));
  mount(router, 'tokeniseCard', ({ ctx, body }) => payments.tokenise(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), body.card));

  return router;
}
