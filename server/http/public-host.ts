import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';
import type { Ctx } from './operation.ts';
import { BROWSER_CODE } from './static-assets.ts';

/**
 * The host name the browser used. Behind `hops` proxies it is the X-Forwarded-Host entry that many
 * from the right (as client-address.ts reads X-Forwarded-For); when they send none, unknown: the
 * Host header then names the proxy's upstream, not what the browser asked for.
 */
function hostSeen(ctx: Ctx, hops: number): string | undefined {
  if (hops === 0) return ctx.get('host') || undefined;
  const forwarded = ctx.get('x-forwarded-host').split(',').map((entry) => entry.trim()).filter(Boolean);
  return forwarded.length ? forwarded.at(-Math.min(hops, forwarded.length)) : undefined;
}

/** `host[:port]` as URL writes it (lower case, the scheme's default port left out); undefined if it does not parse. */
function normalHost(host: string, protocol: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}

/**
 * The SDK and the frames live at the service's public URL (CPE_PUBLIC_URL). A page that loads them
 * through another name of the same service (`localhost` for `127.0.0.1`, a bare IP address, an
 * internal name) would get frames of another origin than the one the service trusts, and their
 * tokenise would be refused. So GET and HEAD of /sdk/… and /frames/… on any other host name are
 * redirected (308, path and query kept) to the public URL, and it just works; the SDK then takes its
 * origin from the address it was finally loaded from.
 *
 * The redirect is not cached (`no-store`, so changing CPE_PUBLIC_URL never leaves a browser with a
 * stale permanent redirect) and carries CORS and CORP headers: a module script, also on a
 * cross-origin-isolated page, follows a redirect only if the redirect itself allows it.
 */
export function publicHostRedirect(publicUrl: () => string, hops: number): Middleware<AppState> {
  return (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !BROWSER_CODE.test(ctx.path)) return next();
    const base = publicUrl();
    const target = new URL(base);
    const seen = hostSeen(ctx, hops);
    const host = seen && normalHost(seen, target.protocol);
    if (!host || host === target.host) return next();
    ctx.status = 308;
    ctx.set({ 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    ctx.redirect(`${base.replace(/\/+$/, '')}${ctx.url}`); // keeps the 308 set above
  };
}
