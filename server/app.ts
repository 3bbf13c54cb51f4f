import Router from '@koa/router';
import Koa from 'koa';
import { adminRoutes } from './admin/admin-routes.ts';
import { dashboardRoutes } from './dashboard/dashboard-routes.ts';
import { firstPageData } from './dashboard/first-page.ts';
import { requestRecorder } from './dashboard/request-recorder.ts';
import type { AppState } from './http/app-state.ts';
import { body } from './http/body.ts';
import { byAddress, resolveClientAddress } from './http/client-address.ts';
import { durableWrites } from './http/durable-writes.ts';
import { errorMapper } from './http/error-mapper.ts';
import { rateLimit } from './http/rate-limit.ts';
import { requestLog } from './http/request-log.ts';
import { staticAssets } from './http/static-assets.ts';
import { eventRoutes } from './events/event-routes.ts';
import { webhookRoutes } from './webhooks/webhook-routes.ts';
import { messagingRoutes } from './messaging/routes.ts';
import { OPERATIONS } from '../api/operations.ts';
import { mountedOperations } from './http/operation.ts';
import { openApiDocument } from './openapi.ts';
import { publicHostRedirect } from './http/public-host.ts';
import { cardTestingLimits } from './payments/card-testing.ts';
import { challengeRoutes } from './payments/challenge-page.ts';
import { walletRoutes } from './payments/wallet-routes.ts';
import { frameAncestorsOf } from './payments/frame-ancestors.ts';
import { backendPaymentRoutes, browserPaymentRoutes } from './payments/payment-routes.ts';
import type { Services } from './services.ts';

export { createServices, type Services } from './services.ts';

/**
 * Composes the service: request log, the one error mapper, body parsing, then one router per
 * area. Each request flows router → validate(schema) → service → store, and a request that may
 * change data is answered only once its changes are on disk (durableWrites).
 */
export function createApp(services: Services, options: { adminSecret?: string } = {}): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  app.on('error', (error: Error, ctx?: Koa.Context) => {
    services.logger.log('error', 'unhandled', { request_id: ctx?.state?.requestId, error: error.name, stack: error.stack });
  });

  const { config } = services;
  const address = byAddress('ip');
  const limiter = rateLimit(config.rateLimit, (state, ip) => state.rateKey ?? address(state, ip));
  const cardTesting = cardTestingLimits(config);

  const root = new Router<AppState>();
  root.get('/v1/openapi.json', (ctx) => {
    ctx.body = openApiDocument(config.publicUrl, OPERATIONS);
  });
  root.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });

  // Every router the app mounts, in order; together they serve every operation of the table (api/),
  // which the API description describes. A request passes through each router before the one that
  // serves it (a match of its paths, and its 405 check on the way back): the API's first, the
  // health check and the description last.
  const routers = [
    messagingRoutes(services, limiter),
    backendPaymentRoutes(services, limiter, cardTesting),
    browserPaymentRoutes(services, limiter, cardTesting),
    eventRoutes(services, limiter),
    webhookRoutes(services, limiter),
    challengeRoutes(services),
    walletRoutes(services, cardTesting),
    dashboardRoutes(services, limiter),
    adminRoutes(services, options.adminSecret),
    root,
  ];
  const served = mountedOperations(routers);
  const unserved = OPERATIONS.filter((operation) => !served.has(operation.name));
  if (unserved.length) throw new Error(`No router mounts ${unserved.map((operation) => operation.name).join(', ')} (api/routes.ts)`);

  const { rateBuckets } = services.store;
  if (rateBuckets)
    app.use((ctx, next) => {
      ctx.state.rateBuckets = rateBuckets;
      return next();
    });
  app.use(resolveClientAddress(config.trustProxy ?? 0));
  app.use(requestLog(services.logger));
  app.use(requestRecorder(services.dashboard.requests));
  app.use(errorMapper());
  app.use((ctx, next) => {
    // An API answer is never for a shared cache, and never sniffed as another type.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  app.use(publicHostRedirect(() => config.publicUrl, config.trustProxy ?? 0));
  app.use(
    staticAssets({ frameAncestors: frameAncestorsOf(services.merchants, services.payments), publicUrl: () => config.publicUrl, dashboardFirstPage: firstPageData(services) }),
  );
  app.use(body());
  app.use(durableWrites(services.store));
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
