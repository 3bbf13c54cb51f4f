import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { CpeClient, cpeMiddleware, toSession } from '../server/client/index.ts';
import type { Credentials } from '../server/seed.ts';
import { cardPage, checkoutContextPage, fieldsPage, flowPage, htmlPage, verifyPage, walletsPage } from './pages.ts';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), 'public');
const FILES: Record<string, string> = {
  '/checkout.js': 'text/javascript',
  '/card.js': 'text/javascript',
  '/fields.js': 'text/javascript',
  '/log.js': 'text/javascript',
  '/flow-verify.js': 'text/javascript',
  '/wallets.js': 'text/javascript',
  '/checkout-context.js': 'text/javascript',
  '/demo.css': 'text/css',
};
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/></svg>';

/**
 * The demo merchant: a separate origin from the service, as every real merchant is. Its backend
 * holds the licence key (creates intents, forwards middleware calls, authorises, verifies); its pages
 * load the SDK from the service and take test payments with `<cpe-card>` and `<cpe-card-fields>`.
 */
export function startDemo(options: { port: number; credentials: Credentials }): Promise<{ server: Server; url: string; port: number }> {
  const app = new Koa();
  const { serviceUrl, merchantId, publicKey, licenceKey } = options.credentials;
  const cpe = new CpeClient({ licenceKey, baseUrl: serviceUrl });
  const pageConfig = { serviceUrl, publicKey, merchantId };
  let order = 0;

  // Each visitor's basket intents, by a random cookie: the middleware routes act only on these.
  const intentsOf = new Map<string, Set<string>>();
  const visitorOf = (ctx: Koa.Context) => {
    let visitor = ctx.cookies.get('demo_visitor');
    if (!visitor || !intentsOf.has(visitor)) {
      visitor = randomBytes(18).toString('base64url');
      intentsOf.set(visitor, new Set());
      ctx.cookies.set('demo_visitor', visitor, { httpOnly: true, sameSite: 'lax', overwrite: true });
    }
    return visitor;
  };
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/payment-intents') return next();
    // The backend decides what is paid for: the browser never sends the amount.
    const created = await cpe.createPaymentIntent({
      merchantid: merchantId,
      amount: 1234,
      currency: 'GBP',
      identifier: `demo-order-${Date.now()}-${++order}`,
      billTo: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', postcode: 'N1 9GU', country: 'GB' },
    });
    intentsOf.get(visitorOf(ctx))!.add(created.paymentIntentId);
    ctx.body = toSession(created);
  });
  // A card check without a payment (verifyFlow): an intent of purpose verify, amount 0.
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/verify-intents') return next();
    const created = await cpe.createPaymentIntent({ merchantid: merchantId, amount: 0, currency: 'GBP', identifier: `demo-verify-${Date.now()}-${++order}`, purpose: 'verify' });
    intentsOf.get(visitorOf(ctx))!.add(created.paymentIntentId);
    ctx.body = toSession(created);
  });
  // Before fulfilling, the backend verifies: status, amount, currency and its own order reference.
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/verify') return next();
    await bodyParser({ enableTypes: ['json'] })(ctx, async () => {});
    const id = (ctx.request.body as { payment_intent_id?: unknown })?.payment_intent_id;
    if (typeof id !== 'string') {
      ctx.status = 400;
      ctx.body = { error: { message: 'payment_intent_id is required' } };
      return;
    }
    const result = await cpe.verify({ payment_intent_id: id, unmask_fields: ['email'] });
    const fulfil =
      result.status === 'success' &&
      result.auth?.currency === 'GBP' &&
      ((result.auth.amount === 1234 && /^(demo-order-|basket-)/.test(result.auth.identifier)) || (result.auth.amount === 0 && result.auth.identifier.startsWith('demo-verify-')));
    ctx.body = { ...result, fulfil };
  });
  // Middleware mode: /api/cpe/attach, /confirm, /authorise, /verify-auth, /exchange forward to the
  // service, for the intents this visitor's basket created only (another id is answered as absent).
  // Checkout Context: the backend prices the basket itself (never the amount the browser shows) and
  // creates the intent at commit time; the SDK checks the answer against what it showed.
  const exchange = (body: unknown) => {
    const reference = String((body as { context?: { reference?: unknown } })?.context?.reference ?? '');
    if (reference !== 'basket-42') throw new Error('unknown basket');
    return { merchantid: merchantId, amount: 1234, currency: 'GBP', identifier: `basket-42-${Date.now()}-${++order}` };
  };
  const middleware = cpeMiddleware({
    client: cpe,
    exchange,
    allowIntent: (ctx, id) => id !== undefined && (intentsOf.get(ctx.cookies.get('demo_visitor') ?? '')?.has(id) ?? false),
    onCreated: (session, ctx) => void intentsOf.get(visitorOf(ctx))!.add(session.paymentIntentId),
  });
  app.use(middleware.router('/api/cpe').routes());

  app.use(async (ctx) => {
    if (FILES[ctx.path]) {
      ctx.type = `${FILES[ctx.path]}; charset=utf-8`;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = readFileSync(join(publicDir, ctx.path.slice(1)));
      return;
    }
    if (ctx.path === '/favicon.svg' || ctx.path === '/favicon.ico') {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = FAVICON;
      return;
    }
    const page = {
      '/': cardPage,
      '/fields': fieldsPage,
      '/flow': flowPage,
      '/verify': verifyPage,
      '/wallets': walletsPage,
      '/checkout-context': checkoutContextPage,
      '/html': htmlPage,
    }[ctx.path];
    if (!page) {
      ctx.status = 404;
      ctx.body = 'Not found';
      return;
    }
    ctx.type = 'html';
    // What a merchant's policy needs for CPE: the service origin for script, frame and connect. No
    // inline script, no eval.
    ctx.set('Content-Security-Policy', `default-src 'self'; script-src 'self' ${serviceUrl}; frame-src ${serviceUrl}; connect-src 'self' ${serviceUrl}; img-src 'self' data:`);
    ctx.body = page(pageConfig);
  });

  const server = createServer(app.callback());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({ server, url: `http://localhost:${port}`, port });
    });
  });
}
