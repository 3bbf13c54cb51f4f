import Router from '@koa/router';
import { timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.ts';
import { ApiError, noSuch, noSuchRoute } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { mount } from '../http/operation.ts';

/** The header carrying the secret the service wrote to its data folder (cli/service-link.ts sends it). */
export const ADMIN_HEADER = 'X-CPE-Admin';

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';

/**
 * Lets the CLI create users, tokens and merchants inside the running service, so the service's
 * in-memory database stays the only writer of the file: the table's `admin` operations (api/routes.ts).
 * Reachable only from this machine, with the secret the service wrote to its data folder at start
 * (without one, as in tests, not at all): anyone else gets the 404 of a route that does not exist.
 * Not part of the public API.
 */
export function adminRoutes(services: Services, secret: string | undefined): Router<AppState> {
  const router = new Router<AppState>();
  const expected = secret === undefined ? undefined : Buffer.from(secret);
  router.use('/admin', async (ctx, next) => {
    const given = Buffer.from(ctx.get(ADMIN_HEADER));
    // This machine both as the socket's peer and as the client (behind a proxy on this machine, ctx.ip is the proxy's client).
    const ok = expected && isLoopback(ctx.req.socket.remoteAddress ?? '') && isLoopback(ctx.ip) && given.length === expected.length && timingSafeEqual(given, expected);
    if (!ok) throw noSuchRoute(ctx.method, ctx.path);
    return next();
  });
  mount(router, 'issueToken', async ({ body }) => ({ accessToken: (await services.users.issueToken(body.username)).accessToken }));
  mount(router, 'createMerchant', async ({ body }) => {
    try {
      return await services.merchants.create(body);
    } catch (error) {
      throw new ApiError('parameter_invalid', (error as Error).message, 'origins');
    }
  });
  mount(router, 'createDashboardLink', ({ body }) => dashboardLink(services, body.merchantId));
  return router;
}

/** A one-time sign-in link to the dashboard for a merchant (`npm run -s dashboard`, `npm start`'s banner). */
export async function dashboardLink(services: Pick<Services, 'merchants' | 'dashboard' | 'config'>, merchantId: number): Promise<{ url: string; merchantId: number; expires_at: number }> {
  if (!(await services.merchants.get(merchantId))) throw noSuch('merchant', String(merchantId), 'merchantId');
  const { token, expires_at } = await services.dashboard.sessions.createLink(merchantId);
  // The token rides in the fragment: never sent in a request line, so never in a log or a Referer.
  return { url: `${services.config.publicUrl}/dashboard/link#${token}`, merchantId, expires_at };
}
