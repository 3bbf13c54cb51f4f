import { frameSecurityHeaders, type FrameSecurityOptions } from '../http/frame-security.ts';

/**
 * The dashboard page's headers: the frames' Content-Security-Policy (only the service's own files,
 * no inline code but by hash, no plugins, no base, forms to itself), framed by no page at all
 * (`frame-ancestors 'none'`, and X-Frame-Options for older browsers: a framed dashboard could be
 * clickjacked into a Refund), isolated from other windows (COOP), and never loaded cross-origin (CORP).
 * A signed-in visit's page carries its session's data (first-page.ts): `no-store` then.
 */
export function dashboardPageHeaders(hashes?: FrameSecurityOptions['hashes'], cache: FrameSecurityOptions['cache'] = 'no-cache'): Record<string, string> {
  return {
    ...frameSecurityHeaders({ ancestors: [], hashes, cache }),
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    // What the page holds depends on the session cookie (first-page.ts).
    Vary: 'Sec-Fetch-Dest, Cookie',
  };
}
