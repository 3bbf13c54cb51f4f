import type { Middleware } from 'koa';
import type { ServiceErrorCode } from '../../api/error-codes.ts';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';
import type { Ctx } from './operation.ts';

/**
 * Every refusal of a request for the page it came from says which origin was seen, which was
 * expected, and the exact fix: a merchant page's origin is registered with
 * `npm run -s merchant -- --origin <origin>`; the service's own pages live at CPE_PUBLIC_URL.
 */

/** A merchant page origin that the merchant (or, without a key, any merchant) has not registered. */
export function pageOriginRefused(seen: string, expected: readonly string[] | undefined): ApiError {
  const registered = expected
    ? `This merchant's pages may be on ${expected.length ? expected.join(', ') : '(no origin registered)'}`
    : 'No merchant has registered that origin';
  return new ApiError('origin_not_allowed',
    `This request came from a page of origin ${seen}. ${registered}. To take payments on ${seen}, create a test merchant for it with npm run -s merchant -- --origin ${seen} and use its keys.`,
  );
}

export interface OwnOriginRule {
  /** The error code, e.g. `frames_only`. */
  code: ServiceErrorCode;
  /** What is refused, as the start of a sentence: "POST /frames/tokenise answers the hosted frames only". */
  refused: string;
  /** What a caller outside the service's pages should do instead (a sentence). */
  instead: string;
}

/**
 * Why a request is not from one of the service's own pages (undefined when it is): its `Origin` must
 * be the service's public origin and, where the browser sends fetch metadata, `Sec-Fetch-Site`
 * `same-origin`. Only a browser guarantees both; a script or curl sends no Origin (it could forge
 * one, so the routes behind this are also limited and session-bound).
 */
export function ownOriginRefusal(ctx: Ctx, publicUrl: string, rule: OwnOriginRule): ApiError | undefined {
  const expected = new URL(publicUrl).origin;
  const origin = ctx.get('origin');
  const site = ctx.get('sec-fetch-site');
  let why: string | undefined;
  if (!origin) why = `this request carried no Origin header (expected ${expected}), so no browser page sent it: a script, curl or a server did. ${rule.instead}`;
  else if (origin !== expected) {
    why = sameHostAs(ctx, origin)
      ? `this request came from ${origin}, which is this service under another name than its public URL ${expected} (CPE_PUBLIC_URL). Load the SDK from ${expected}/sdk/cpe.js, or start the service with CPE_PUBLIC_URL=${origin}.`
      : `this request came from a page of origin ${origin}, expected the service's own origin ${expected}: cards are typed and tokenised only in the service's frames, which the SDK mounts in your page. ${rule.instead}`;
  } else if (site && site !== 'same-origin') why = `this request was sent with Sec-Fetch-Site: ${site}, expected same-origin (the service's own page at ${expected}). ${rule.instead}`;
  return why === undefined ? undefined : new ApiError(rule.code, `${rule.refused}: ${why}`);
}

/** An Origin naming the host this request was addressed to: the service's own page, under a name that is not its public one. */
function sameHostAs(ctx: Ctx, origin: string): boolean {
  try {
    return new URL(origin).host === ctx.get('host');
  } catch {
    return false;
  }
}

/** Middleware form of ownOriginRefusal. */
export function ownOriginOnly(publicUrl: () => string, rule: OwnOriginRule): Middleware<AppState> {
  return (ctx, next) => {
    const refusal = ownOriginRefusal(ctx, publicUrl(), rule);
    if (refusal) throw refusal;
    return next();
  };
}
