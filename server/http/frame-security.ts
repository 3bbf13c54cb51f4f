/**
 * The security headers of every page the service shows inside a merchant's page: the hosted frames
 * (static, built by Vite) and the 3-D Secure challenge page (rendered, its built script inline). Card data and
 * 3-D Secure answers live only in these pages, so they load nothing but the service's own files and
 * may be framed only by the pages of the merchant whose session they serve.
 */
export interface FrameSecurityOptions {
  /** Merchant page origins allowed to embed the page; none: no page may (`frame-ancestors 'none'`). */
  ancestors: readonly string[];
  /**
   * A page whose every script and style is inline and allowed by its hash (`hashes`), loading no file
   * of the service either: `default-src 'none'` and no 'self' (the challenge page). Otherwise the
   * page may also load the service's own files ('self': the static frames).
   */
  inlineOnly?: boolean;
  /** Also allow the service's own pages as ancestors (the challenge page inside a hosted frame). */
  selfAncestor?: boolean;
  /** Hash sources ('sha256-…') of a static page's inline scripts and styles (its code is inline). */
  hashes?: { script: readonly string[]; style: readonly string[] };
  /** `no-store` for pages carrying a secret; static frames revalidate by ETag (`no-cache`). */
  cache?: 'no-store' | 'no-cache';
  /**
   * The request's `Sec-Fetch-Dest`. The page may be loaded cross-origin only as a frame (or a
   * document); fetched as anything else (`empty`, `script`, `image`…) it is same-origin only, so a
   * cross-origin-isolated merchant page can frame it but never pull its bytes into its own process.
   * Absent (a browser without fetch metadata): cross-origin, so that such a browser can still frame it.
   */
  fetchDest?: string;
}

/** Destinations for which another origin's page may load a frame page: framing it, or navigating to it. */
const FRAMED_AS = new Set(['iframe', 'frame', 'document']);

/** A CSP source list entry for frame-ancestors: only http(s) origins pass, never a path or a keyword. */
export function ancestorSource(value: string): string | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin !== 'null' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function frameSecurityHeaders({ ancestors, inlineOnly = false, hashes, selfAncestor = false, cache = 'no-cache', fetchDest }: FrameSecurityOptions): Record<string, string> {
  const sources = [...new Set(ancestors.map(ancestorSource).filter((s): s is string => s !== undefined))];
  if (selfAncestor) sources.unshift("'self'");
  const allow = (kind: 'script' | 'style') => [...(inlineOnly ? [] : ["'self'"]), ...(hashes?.[kind] ?? []).map((hash) => `'${hash}'`)].join(' ') || "'none'";
  const csp = [
    inlineOnly ? "default-src 'none'" : "default-src 'self'",
    `script-src ${allow('script')}`,
    `style-src ${allow('style')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${sources.length ? sources.join(' ') : "'none'"}`,
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the page's own
    // POSTs (the challenge form, the frames' tokenise), and the origin checks could not tell them from forged ones.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': cache,
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    // A frame of a cross-origin-isolated page must opt in to embedding (COEP) and to being loaded
    // cross-origin (CORP). require-corp costs the frames nothing: they load only their own files.
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': !fetchDest || FRAMED_AS.has(fetchDest) ? 'cross-origin' : 'same-origin',
    Vary: 'Sec-Fetch-Dest',
  };
}
