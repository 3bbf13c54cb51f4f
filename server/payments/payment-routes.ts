import Router from '@koa/router';
import type { Middleware } from 'koa';
import { PUBLIC_KEY_HEADER } from '../../protocol/runtime/headers.ts';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { mount, type Ctx } from '../http/operation.ts';
import { ownOriginOnly, pageOriginRefused } from '../http/origin-refusals.ts';
import { limitedAuth } from '../http/rate-limit.ts';
import type { CardTestingLimits } from './card-testing.ts';
import { cors } from './cors.ts';
import { licenceKeyAuth, sessionAuth, sessionIntentId } from './payment-auth.ts';
import {
  AttachRequest,
  AttachResponse,
  AuthoriseResponse,
  CaptureRequest,
  ConfirmResponse,
  IntentRequest,
  PaymentIntent,
  PaymentIntentCreate,
  PaymentIntentCreated,
  SessionAttachRequest,
  SessionIntent,
  SessionIntentRequest,
  TokenCreateRequest,
  TokeniseRequest,
  TokeniseResponse,
  VerifyRequest,
  VerifyResponse,
} from './schemas.ts';

/** Runs a middleware for every method but OPTIONS, which the preflight route answers alone. */
const exceptPreflight =
  (middleware: Middleware<AppState>): Middleware<AppState> =>
  (ctx, next) =>
    ctx.method === 'OPTIONS' ? next() : middleware(ctx, next);

const merchantOf = (ctx: Ctx) => ctx.state.merchantId!;

/**
 * Backend routes under /v1/payment_intents (licence key): create, retrieve, attach, confirm,
 * authorise, capture, cancel, verify; and POST /v1/tokens. Handlers only call the service; it alone
 * moves statuses.
 */
export function backendPaymentRoutes(
  { idempotencyKeys, merchants, payments }: Pick<Services, 'idempotencyKeys' | 'merchants' | 'payments'>,
  limiter: Middleware<AppState>,
  cardTesting: CardTestingLimits,
): Router<AppState> {
  const router = new Router<AppState>();
  const licenceKey = limitedAuth(licenceKeyAuth(merchants), limiter);
  router.use('/v1/payment_intents', licenceKey, idempotencyKeys.middleware());
  router.use('/v1/tokens', licenceKey, cardTesting.perMerchant, idempotencyKeys.middleware());

  // Raw card data from a server, as Stripe allows it in test mode only: for server-side tests and the
  // README's command-line payment. Browsers tokenise in the hosted frames (/frames/tokenise).
  mount(router, { auth: 'licenceKey', tag: 'Tokens', method: 'post', path: '/v1/tokens', summary: 'Test mode: tokenise a card from your server; the token attaches once, to any of your intents', body: TokenCreateRequest, response: TokeniseResponse,
    handler: ({ ctx, body }) => payments.createToken(merchantOf(ctx), body.card) });

  const op = { auth: 'licenceKey' as const, tag: 'Payment Intents' };

  mount(router, { ...op, method: 'post', path: '/v1/payment_intents', summary: 'Create a Payment Intent', body: PaymentIntentCreate, response: PaymentIntentCreated,
    handler: ({ ctx, body }) => payments.create(merchantOf(ctx), body) });
  mount(router, { ...op, method: 'get', path: '/v1/payment_intents/:id', summary: 'Retrieve a Payment Intent with its attempts', response: PaymentIntent,
    handler: ({ ctx, params }) => payments.get(merchantOf(ctx), params.id) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/attach', summary: 'Attach a card token (or vaulted card) to a Payment Intent', body: AttachRequest, response: AttachResponse,
    handler: ({ ctx, body }) => payments.attach(merchantOf(ctx), body.payment_intent_id, body) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/confirm', summary: 'Confirm: 3-D Secure (challenge or frictionless)', body: IntentRequest, response: ConfirmResponse,
    handler: ({ ctx, body }) => payments.confirm(merchantOf(ctx), body.payment_intent_id, null) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/authorise', summary: 'Authorise (and capture unless autoCapture is false)', body: IntentRequest, response: AuthoriseResponse,
    handler: ({ ctx, body }) => payments.authorise(merchantOf(ctx), body.payment_intent_id) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/capture', summary: 'Capture an authorisation once, in full or in part', body: CaptureRequest, response: PaymentIntent,
    handler: ({ ctx, body }) => payments.capture(merchantOf(ctx), body.payment_intent_id, body.amount) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/cancel', summary: 'Cancel a Payment Intent (voids an uncaptured authorisation)', body: IntentRequest, response: PaymentIntent,
    handler: ({ ctx, body }) => payments.cancel(merchantOf(ctx), body.payment_intent_id) });
  mount(router, { ...op, method: 'post', path: '/v1/payment_intents/verify', summary: 'Verify the payment ended in authorised funds; personal fields redacted unless unmasked', body: VerifyRequest, response: VerifyResponse,
    handler: ({ ctx, body }) => payments.verify(merchantOf(ctx), body.payment_intent_id, body.unmask_fields) });
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

  const intentPaths = ['/intent', '/intent/attach', '/intent/confirm', '/intent/authorise'];
  for (const path of intentPaths) router.options(path, merchantCors.preflight);
  // One prefix: a list of overlapping paths would run the middleware twice for /intent/attach.
  router.use('/intent', ...[merchantCors.request, limitedAuth(sessionAuth(merchants, payments), limiter), idempotencyKeys.middleware()].map(exceptPreflight));
  // Every attempt counts against its address, refused or not; then the frames-only check, the
  // session, and the session's and merchant's budgets (card-testing.ts).
  router.use('/frames/tokenise', ...[cardTesting.perAddress, framesOnly, sessionAuth(merchants, payments), cardTesting.perSession, cardTesting.perMerchant, idempotencyKeys.middleware()].map(exceptPreflight));

  const op = { auth: 'session' as const, tag: 'Browser (session)' };
  const intentOf = (ctx: Ctx, named?: string) => sessionIntentId(ctx, named);
  const pageOrigin = (ctx: Ctx) => ctx.get('origin') || null;

  mount(router, { ...op, method: 'get', path: '/intent', summary: 'The session\'s Payment Intent: status and amount (for the pay button)', response: SessionIntent,
    handler: ({ ctx }) => payments.sessionView(merchantOf(ctx), intentOf(ctx)) });
  mount(router, { ...op, method: 'post', path: '/intent/attach', summary: 'Attach a card token to the session\'s Payment Intent', body: SessionAttachRequest, response: AttachResponse,
    handler: ({ ctx, body }) => payments.attach(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), body) });
  mount(router, { ...op, method: 'post', path: '/intent/confirm', summary: 'Confirm the session\'s Payment Intent (3-D Secure)', body: SessionIntentRequest, response: ConfirmResponse,
    handler: ({ ctx, body }) => payments.confirm(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), pageOrigin(ctx)) });
  mount(router, { ...op, method: 'post', path: '/intent/authorise', summary: 'Authorise the session\'s Payment Intent (direct mode)', body: SessionIntentRequest, response: AuthoriseResponse,
    handler: ({ ctx, body }) => payments.authorise(merchantOf(ctx), intentOf(ctx, body.payment_intent_id)) });
  mount(router, { ...op, tag: 'Hosted frames', method: 'post', path: '/frames/tokenise', summary: 'Tokenise a card (hosted frames only): a single-use token valid 15 minutes', body: TokeniseRequest, response: TokeniseResponse,
    handler: ({ ctx, body }) => payments.tokenise(merchantOf(ctx), intentOf(ctx, body.payment_intent_id), body.card) });

  return router;
}
