import Router from '@koa/router';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { ApiError } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { issueToError } from '../http/zod-issues.ts';
import { USERNAME } from '../../api/messaging.ts';

const TokenRequest = z.strictObject({ username: z.string().regex(USERNAME, 'expected 1 to 64 letters, digits, dots, dashes or underscores') });
const MerchantRequest = z.strictObject({ origins: z.array(z.string().max(2048)).max(50), name: z.string().max(100).optional() });
const LinkRequest = z.strictObject({ merchantId: z.int().positive() });

/** The header carrying the secret the service wrote to its data folder (cli/service-link.ts sends it). */
export const ADMIN_HEADER = 'X-CPE-Admin';

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';

/**
 * Lets the CLI create users, tokens and merchants inside the running service, so the service's
 * in-memory database stays the only writer of the file. Reachable only from this machine, with
 * the secret the service wrote to its data folder at start. Not part of the public API.
 */
export function adminRoutes(services: Services, secret: string | undefined): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });
  if (!secret) return router;
  const expected = Buffer.from(secret);
  router.use(async (ctx, next) => {
    const given = Buffer.from(ctx.get(ADMIN_HEADER));
    // This machine both as the socket's peer and as the client (behind a proxy on this machine, ctx.ip is the proxy's client).
    const ok = isLoopback(ctx.req.socket.remoteAddress ?? '') && isLoopback(ctx.ip) && given.length === expected.length && timingSafeEqual(given, expected);
    if (!ok) throw new ApiError(404, 'invalid_request_error', 'route_missing', `Unrecognized request URL (${ctx.method}: ${ctx.path}).`);
    return next();
  });
  router.post('/tokens', async (ctx) => {
    const input = TokenRequest.safeParse(ctx.request.body);
    if (!input.success) throw issueToError(input.error, ctx.request.body);
    const { accessToken } = await services.users.issueToken(input.data.username);
    ctx.body = { accessToken };
  });
  router.post('/merchants', async (ctx) => {
    const input = MerchantRequest.safeParse(ctx.request.body);
    if (!input.success) throw issueToError(input.error, ctx.request.body);
    try {
      ctx.body = await services.merchants.create(input.data);
    } catch (error) {
      throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', (error as Error).message, 'origins');
    }
  });
  router.post('/dashboard_links', async (ctx) => {
    const input = LinkRequest.safeParse(ctx.request.body);
    if (!input.success) throw issueToError(input.error, ctx.request.body);
    ctx.body = await dashboardLink(services, input.data.merchantId);
  });
  return router;
}

/** A one-time sign-in link to the dashboard for a merchant (`npm run -s dashboard`, `npm start`'s banner). */
export async function dashboardLink(services: Pick<Services, 'merchants' | 'dashboard' | 'config'>, merchantId: number): Promise<{ url: string; merchantId: number; expires_at: number }> {
  if (!(await services.merchants.get(merchantId))) throw new ApiError(404, 'invalid_request_error', 'resource_missing', `No such merchant: ${merchantId}.`, 'merchantId');
  const { token, expires_at } = await services.dashboard.sessions.createLink(merchantId);
  // The token rides in the fragment: never sent in a request line, so never in a log or a Referer.
  return { url: `${services.config.publicUrl}/dashboard/link#${token}`, merchantId, expires_at };
}
