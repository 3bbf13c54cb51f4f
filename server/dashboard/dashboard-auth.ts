import type { Middleware } from 'koa';
import { ApiError } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import type { Ctx } from '../http/operation.ts';
import { csrfMatches, csrfTokenOf, SESSION_SECONDS, type DashboardSession, type DashboardSessions } from './sessions.ts';

/** The session cookie: HttpOnly, SameSite=Strict, Path=/dashboard, Secure behind https. */
export const SESSION_COOKIE = 'cpe_dashboard';
/** The header every state-changing dashboard request carries its CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';

const READS = new Set(['GET', 'HEAD']);

/** The session cookie's Set-Cookie value (`token` undefined: the cookie cleared). */
export function sessionCookie(token: string | undefined, secure: boolean): string {
  const attributes = ['Path=/dashboard', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  return token === undefined ? [`${SESSION_COOKIE}=`, 'Max-Age=0', ...attributes].join('; ') : [`${SESSION_COOKIE}=${token}`, `Max-Age=${SESSION_SECONDS}`, ...attributes].join('; ');
}

/** The cookie's token, read from the Cookie header (the first of that name). */
export function cookieToken(ctx: Ctx): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

const refused = (code: 'cross_site_request' | 'csrf_token_invalid', message: string) => new ApiError(code, message);

/**
 * A dashboard action comes from the dashboard's own page: `Origin` is the service's origin and, where
 * the browser sends fetch metadata, `Sec-Fetch-Site` is same-origin. A form or script of another site
 * is refused here, before its cookie (SameSite=Strict keeps that away too) or token is looked at.
 */
export function sameOriginActions(publicUrl: () => string): Middleware<AppState> {
  return (ctx, next) => {
    if (READS.has(ctx.method)) return next();
    const expected = new URL(publicUrl()).origin;
    const origin = ctx.get('origin');
    const site = ctx.get('sec-fetch-site');
    if (origin !== expected)
      throw refused('cross_site_request', `Dashboard actions are taken on the dashboard's own pages at ${expected}; this request came from ${origin || 'no page (no Origin header)'}.`);
    if (site && site !== 'same-origin') throw refused('cross_site_request', `Dashboard actions are taken on the dashboard's own pages; this request was sent with Sec-Fetch-Site: ${site}.`);
    return next();
  };
}

/** The signed-in session of a request, as the dashboard's routes read it. */
export interface SignedIn {
  session: DashboardSession;
  csrfToken: string;
}

const signedIn = new WeakMap<object, SignedIn>();

/** The request's session (only behind `dashboardSession`). */
export function sessionOf(ctx: Ctx): SignedIn {
  const found = signedIn.get(ctx.state);
  if (!found) throw new Error('dashboardSession must run before this route');
  return found;
}

export const signedOut = () => new ApiError('signed_out', 'Sign in to the dashboard: with your licence key, or a link from npm run -s dashboard.');

/**
 * The dashboard's session: the cookie names a live session (else 401), which names the merchant
 * whose data every route shows; a state-changing request also carries the session's CSRF token in
 * X-CSRF-Token (else 403).
 */
export function dashboardSession(sessions: DashboardSessions): Middleware<AppState> {
  return async (ctx, next) => {
    const token = cookieToken(ctx);
    const session = await sessions.find(token);
    if (!session || !token) throw signedOut();
    if (!READS.has(ctx.method) && !csrfMatches(token, ctx.get(CSRF_HEADER)))
      throw refused('csrf_token_invalid', `This dashboard action lacks its CSRF token (${CSRF_HEADER}): reload the dashboard and try again.`);
    ctx.state.merchantId = session.merchant_id;
    ctx.state.rateKey = `dashboard:${session.id}`;
    signedIn.set(ctx.state, { session, csrfToken: csrfTokenOf(token) });
    return next();
  };
}
