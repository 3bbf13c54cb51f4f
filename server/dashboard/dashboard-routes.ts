import { isDeepStrictEqual } from 'node:util';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { CancelBody, CaptureBody, HomeQuery, KeysView, PaymentsQuery, RequestLogQuery, RollKey, SignIn, type RolledKey, type SessionView } from '../../api/dashboard.ts';
import { EventListQuery } from '../../api/events.ts';
import { PaymentIntentUpdate } from '../../api/payments.ts';
import { RefundCreate, type Refund } from '../../api/refunds.ts';
import { merchantOwner } from '../events/owner.ts';
import { ApiError, noSuch } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { parseQuery, type Ctx } from '../http/operation.ts';
import { rateLimit, type RateLimitOptions } from '../http/rate-limit.ts';
import { CursorNotFound } from '../store/store.ts';
import { rewriteSeededLicenceKey, seededMerchantId } from '../seed.ts';
import type { Services } from '../services.ts';
import { cookieToken, dashboardSession, sameOriginActions, sessionCookie, sessionOf, signedOut } from './dashboard-auth.ts';
import type { RequestRecord } from './request-records.ts';
import { homeView, sessionView } from './first-page.ts';
import { parsed } from './parsed.ts';
import { dashboardWebhookRoutes } from './webhook-routes.ts';
import { searchPayments } from './payments-search.ts';
import { csrfTokenOf } from './sessions.ts';

/** A payment's page read again while its intent changes under it, at most this many times (then the last read). */
const CONSISTENT_READ_TRIES = 5;

/** Sign-in attempts per client address: 10 at once, then one every 6 seconds (10 a minute). */
export const DEFAULT_SIGN_IN_LIMIT: RateLimitOptions = { perSecond: 1 / 6, burst: 10 };

const listOf = <T>(url: string, page: { data: T[]; hasMore: boolean }) => ({ object: 'list' as const, url, has_more: page.hasMore, data: page.data });

/** A page of a list; a cursor that names nothing of it is a 404 naming the cursor, as the /v1 lists answer. */
async function paged<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CursorNotFound) throw noSuch('object', error.cursor, error.param);
    throw error;
  }
}

const recordView = ({ merchant_id: _, ...record }: RequestRecord) => record;

/**
 * The dashboard's API, for its page only (api/dashboard.ts has the shapes): a cookie session
 * (dashboard-auth.ts) instead of a key, each action from the dashboard's own origin with the
 * session's CSRF token, every read of the signed-in merchant's data only (another's id is a 404). The
 * handlers call the services the /v1 routes call: one set of rules.
 */
export function dashboardRoutes(services: Services, limiter: Middleware<AppState>): Router<AppState> {
  const { config, merchants, dashboard, events, payments } = services;
  const router = new Router<AppState>({ prefix: '/dashboard/api' });
  const secure = () => new URL(config.publicUrl).protocol === 'https:';
  const signInLimit = rateLimit(config.dashboardSignInLimit ?? DEFAULT_SIGN_IN_LIMIT, (_state, ip) => `dashboard-sign-in:${ip}`);
  const session = dashboardSession(dashboard.sessions);
  const merchantOf = (ctx: Ctx) => ctx.state.merchantId!;

  /** The session as the page learns it (first-page.ts), or signed out when its merchant is gone. */
  async function sessionViewOf(started: Parameters<typeof sessionView>[1], csrfToken: string): Promise<SessionView> {
    const view = await sessionView(services, started, csrfToken);
    if (!view) throw signedOut();
    return view;
  }

  router.use(sameOriginActions(() => config.publicUrl));

  // Sign-in: counted per address before the key is looked at, so guessing keys is slow.
  router.post('/sign-in', signInLimit, async (ctx) => {
    const body = parsed(SignIn, ctx.request.body);
    let merchantId: number | undefined;
    if (body.licence_key !== undefined) {
      merchantId = (await merchants.byKey(body.licence_key, 'licence'))?.merchant_id;
      if (merchantId === undefined) throw new ApiError('sign_in_failed', 'That licence key is not one of this service\'s (or it was rolled and has expired).', 'licence_key');
      await merchants.learn([{ key: body.licence_key, kind: 'licence' }]);
    } else {
      merchantId = await dashboard.sessions.redeemLink(body.link!);
      if (merchantId === undefined)
        throw new ApiError('sign_in_failed', 'This sign-in link was used already or has expired (links work once, within an hour): run npm run -s dashboard for a new one.', 'link');
    }
    const { token, session: started } = await dashboard.sessions.start(merchantId, body.licence_key !== undefined ? 'licence_key' : 'link');
    ctx.set('Set-Cookie', sessionCookie(token, secure()));
    ctx.state.merchantId = merchantId;
    ctx.body = await sessionViewOf(started, csrfTokenOf(token));
  });

  // Who is signed in: the session, or `{signed_in: false}` (a 200: the page asks before it knows).
  router.get('/session', async (ctx) => {
    const token = cookieToken(ctx);
    const current = await dashboard.sessions.find(token);
    ctx.body = current && token ? await sessionViewOf(current, csrfTokenOf(token)) : { signed_in: false };
  });

  // Everything else: the session (and, for an action, its CSRF token), then the general limiter per session.
  router.use(session, limiter);

  router.post('/sign-out', async (ctx) => {
    await dashboard.sessions.end(sessionOf(ctx).session.id);
    ctx.set('Set-Cookie', sessionCookie(undefined, secure()));
    ctx.body = { signed_out: true };
  });

  // Developers: the keys as they may be shown, Roll key, the request log.
  router.get('/keys', async (ctx) => {
    const merchantId = merchantOf(ctx);
    ctx.body = KeysView.parse({ ...(await merchants.keysView(merchantId)), seeded: seededMerchantId(config) === merchantId });
  });

  router.post('/keys/roll', async (ctx) => {
    const { expiry } = parsed(RollKey, ctx.request.body);
    const merchantId = merchantOf(ctx);
    const rolled = await merchants.rollLicenceKey(merchantId, expiry);
    // Whoever held the old key may have signed in with it: every other session of the merchant ends.
    const ended = await dashboard.sessions.endOthers(merchantId, sessionOf(ctx).session.id);
    const answer: RolledKey = {
      licence_key: rolled.licenceKey,
      old_key_expires_at: rolled.expires_at,
      sessions_ended: ended,
      credentials_file_updated: rewriteSeededLicenceKey(config, merchantId, rolled.licenceKey),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  // Home: its charts and the numbers that need attention (home-stats.ts).
  router.get('/home', async (ctx) => {
    const { tz_offset } = parsed(HomeQuery, parseQuery(ctx.querystring));
    ctx.body = await homeView(services, merchantOf(ctx), tz_offset ?? 0);
  });

  // Payments: the API's list (cursor pages, filters) and the search box (payments-search.ts).
  router.get('/payment_intents', async (ctx) => {
    ctx.body = await searchPayments(payments, merchantOf(ctx), parsed(PaymentsQuery, parseQuery(ctx.querystring)));
  });

  // A payment with what its page shows beside it: its events (the timeline), refunds and the verify answer.
  router.get('/payment_intents/:id', async (ctx) => {
    const merchantId = merchantOf(ctx);
    const id = ctx.params.id!;
    // Four reads, one state: a refund created or settled (its row, its event and the intent's
    // amount_refunded change in one transaction) between them would show a failed refund beside an
    // amount still counting it. The intent read again unchanged after the others means none did.
    for (let read = 1; ; read++) {
      const intent = await payments.get(merchantId, id);
      const body = {
        payment_intent: intent,
        events: await events.forIntent(merchantOwner(merchantId), id),
        refunds: await allRefunds(merchantId, id),
        verify: await payments.verify(merchantId, id, []),
      };
      if (read === CONSISTENT_READ_TRIES || isDeepStrictEqual(await payments.get(merchantId, id), intent)) {
        ctx.body = body;
        return;
      }
    }
  });
  router.post('/payment_intents/:id', async (ctx) => {
    ctx.body = await payments.update(merchantOf(ctx), ctx.params.id!, parsed(PaymentIntentUpdate, ctx.request.body));
  });
  router.post('/payment_intents/:id/capture', async (ctx) => {
    const { amount } = parsed(CaptureBody, ctx.request.body);
    ctx.body = await payments.capture(merchantOf(ctx), ctx.params.id!, amount);
  });
  router.post('/payment_intents/:id/cancel', async (ctx) => {
    const { cancellation_reason } = parsed(CancelBody, ctx.request.body);
    ctx.body = await payments.cancel(merchantOf(ctx), ctx.params.id!, cancellation_reason ?? null);
  });
  router.post('/refunds', async (ctx) => {
    ctx.body = await payments.refund(merchantOf(ctx), parsed(RefundCreate, ctx.request.body));
  });

  /** An intent's refunds, every page of them (an intent has few: each takes part of its capture). */
  async function allRefunds(merchantId: number, intentId: string): Promise<Refund[]> {
    const found: Refund[] = [];
    for (let after: string | undefined; ; ) {
      const page = await payments.listRefunds(merchantId, { payment_intent: intentId, limit: 100, ...(after ? { starting_after: after } : {}) });
      found.push(...page.data);
      if (!page.has_more) return found;
      after = page.data.at(-1)!.id;
    }
  }

  // Events: the merchant's, as GET /v1/events lists them (the same service, the same filters).
  router.get('/events', async (ctx) => {
    ctx.body = await events.list(merchantOwner(merchantOf(ctx)), parsed(EventListQuery, parseQuery(ctx.querystring)));
  });
  router.get('/events/:id', async (ctx) => {
    ctx.body = await events.get(merchantOwner(merchantOf(ctx)), ctx.params.id!);
  });

  // Webhooks: endpoints, their attempts, Retry and Send test event (webhook-routes.ts).
  dashboardWebhookRoutes(router, services, merchantOf);

  router.get('/requests', async (ctx) => {
    const query = parsed(RequestLogQuery, parseQuery(ctx.querystring));
    const page = await paged(() =>
      dashboard.requests.page(merchantOf(ctx), { limit: query.limit ?? 20, startingAfter: query.starting_after, endingBefore: query.ending_before }, query.status),
    );
    ctx.body = listOf('/dashboard/api/requests', { hasMore: page.hasMore, data: page.data.map(recordView) });
  });

  router.get('/requests/:id', async (ctx) => {
    const record = await dashboard.requests.get(merchantOf(ctx), ctx.params.id!);
    if (!record) throw noSuch('request', ctx.params.id!);
    ctx.body = recordView(record);
  });

  return router;
}
