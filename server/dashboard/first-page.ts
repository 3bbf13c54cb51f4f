import type { HomeView, SessionView } from '../../api/dashboard.ts';
import { merchantOwner } from '../events/owner.ts';
import type { Ctx } from '../http/operation.ts';
import type { DashboardFirstPage } from '../http/static-assets.ts';
import type { Services } from '../services.ts';
import { cookieToken } from './dashboard-auth.ts';
import { failingDeliveries } from './failing-deliveries.ts';
import { homeStats } from './home-stats.ts';
import { csrfTokenOf, type DashboardSession } from './sessions.ts';

/** The cookie the dashboard's page keeps the viewer's time zone in (minutes, as Date.getTimezoneOffset), for Home's days. */
export const TZ_COOKIE = 'cpe_dashboard_tz';

/**
 * The answers a signed-in visit's first page would ask the dashboard's API for, put into its HTML
 * (static-assets.ts) so that it shows them without a round trip: the session (the merchant's name and
 * id, the CSRF token, as GET /session answers it) and, for Home, the newest event (where the live
 * polling starts) and its figures. Keyed by the path under /dashboard/api the page asks for
 * (dashboard/app/requests.ts): the page takes each answer once, in place of that request; one it
 * does not find (another time zone than the cookie's, a page whose data is not embedded) it asks for.
 */
export interface FirstPage {
  session: SessionView;
  answers: Record<string, unknown>;
}

/** What the page learns of its session: the merchant, the CSRF token its actions carry, when it ends; undefined if the merchant is gone. */
export async function sessionView(services: Pick<Services, 'merchants'>, started: Pick<DashboardSession, 'merchant_id' | 'expires_at' | 'via'>, csrfToken: string): Promise<SessionView | undefined> {
  const merchant = await services.merchants.get(started.merchant_id);
  return merchant && { merchant: { id: merchant.merchant_id, name: merchant.name }, csrf_token: csrfToken, expires_at: started.expires_at, via: started.via };
}

/** Home's figures for a merchant in a time zone (GET /dashboard/api/home answers the same). */
export const homeView = (services: Services, merchantId: number, tzOffset: number): Promise<HomeView> =>
  homeStats(services, merchantId, tzOffset, () => failingDeliveries(services.webhooks, merchantOwner(merchantId), services.clock.now() - 7 * 24 * 3600));

/** The time zone cookie's offset, when it holds a whole number of minutes in range; else UTC's. */
function tzOffsetOf(ctx: Ctx): number {
  const value = new RegExp(`(?:^|;\\s*)${TZ_COOKIE}=(-?\\d{1,4})(?:;|$)`).exec(ctx.get('cookie'))?.[1];
  const offset = Number(value ?? 0);
  return Math.abs(offset) <= 14 * 60 ? offset : 0;
}

/**
 * The first page's data for a request of the dashboard's page: the paths it answers at once, the
 * answers as they are read (the page's start is sent meanwhile); undefined when the request carries
 * no live session (signed out, expired, or a cross-site navigation, which SameSite=Strict sends
 * without the cookie): that page is the built one, which asks for everything itself.
 */
export function firstPageData(services: Services): (ctx: Ctx) => Promise<DashboardFirstPage | undefined> {
  return async (ctx) => {
    const token = cookieToken(ctx);
    const found = await services.dashboard.sessions.find(token);
    if (!found || !token) return undefined;
    const merchantId = found.merchant_id;
    const home = /^\/dashboard\/?$/.test(ctx.path);
    const tzOffset = tzOffsetOf(ctx);
    const paths = ['/session', ...(home ? ['/events?limit=1', `/home?tz_offset=${tzOffset}`] : [])];
    const read = async (): Promise<FirstPage | undefined> => {
      const session = await sessionView(services, found, csrfTokenOf(token));
      if (!session) return undefined;
      if (!home) return { session, answers: { '/session': session } };
      const [newest, figures] = await Promise.all([services.events.list(merchantOwner(merchantId), { limit: 1 }), homeView(services, merchantId, tzOffset)]);
      return { session, answers: { [paths[0]!]: session, [paths[1]!]: newest, [paths[2]!]: figures } };
    };
    const data = read();
    // Logged here, since the page has been answered by then: it goes without its data, and the app asks.
    data.catch((error: Error) => services.logger.log('error', 'dashboard first page data failed', { error: error.name, stack: error.stack }));
    return { paths, data };
  };
}
