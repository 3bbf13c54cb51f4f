import type { KnownScheme } from './scheme-logos.ts';

/**
 * The card schemes' marks (a 32×20 card each, simple paths): one SVG sprite, `/frames/marks.svg`,
 * which the frames' build writes (vite.config.ts) and every card frame shares from the browser's
 * cache. A frame shows a mark with `<use href="/frames/marks.svg#visa">` (scheme-logos.ts), so its page
 * carries none of them and the sprite loads when a mark first shows. Brand colours on a white card (or
 * the brand's own card colour), so they read the same on light and dark forms. The Visa and Diners
 * Club paths are Simple Icons' (CC0); the others are drawn here from circles, rounded bars and
 * stroked letters (Discover's wordmark, too small for strokes, is text around its orange ball).
 */

/** Two overlapping circles (Mastercard, Maestro) and the lens where they meet. */
const circles = (left: string, right: string, lens: string) =>
  `<circle cx="12.5" cy="10" r="6" fill="${left}"/><circle cx="19.5" cy="10" r="6" fill="${right}"/><path d="M16 5.13a6 6 0 0 1 0 9.74a6 6 0 0 1 0-9.74z" fill="${lens}"/>`;

/** White stroked letters (Amex, JCB): round caps and joins read as a bold wordmark at this size. */
const letters = (d: string, width = 1.5) => `<path d="${d}" fill="none" stroke="#fff" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;

const card = (fill: string, content: string) =>
  `<rect x=".5" y=".5" width="31" height="19" rx="3" fill="${fill}" stroke="${fill === '#fff' ? '#d5d9df' : fill}"/>${content}`;

export const MARKS: Record<KnownScheme, string> = {
  visa: card(
    '#fff',
    `<path fill="#1434cb" transform="translate(4 -2)" d="M9.112 8.262L5.97 15.758H3.92L2.374 9.775c-.094-.368-.175-.503-.461-.658C1.447 8.864.677 8.627 0 8.479l.046-.217h3.3a.904.904 0 01.894.764l.817 4.338 2.018-5.102zm8.033 5.049c.008-1.979-2.736-2.088-2.717-2.972.006-.269.262-.555.822-.628a3.660 3.660 0 011.913.336l.34-1.59a5.207 5.207 0 00-1.814-.333c-1.917 0-3.266 1.02-3.278 2.479-.012 1.079.963 1.68 1.698 2.04.756.367 1.01.603 1.006.931-.005.504-.602.725-1.16.734-.975.015-1.540-.263-1.992-.473l-.351 1.642c.453.208 1.289.39 2.156.398 2.037 0 3.37-1.006 3.377-2.564m5.061 2.447H24l-1.565-7.496h-1.656a.883.883 0 00-.826.55l-2.909 6.946h2.036l.405-1.12h2.488zm-2.163-2.656l1.02-2.815.588 2.815zm-8.16-4.840l-1.603 7.496H8.34l1.605-7.496z"/>`,
  ),
  mastercard: card('#fff', circles('#eb001b', '#f79e1b', '#ff5f00')),
  maestro: card('#fff', circles('#eb001b', '#00a2e5', '#7375cf')),
  amex: card('#1f72cd', letters('M5 13.5l2-7 2 7M5.7 11.2h2.6M11 13.5v-7l2 4 2-4v7M20.3 6.5h-2.8v7h2.8M17.5 10h2.4M22.3 6.5l4.2 7M26.5 6.5l-4.2 7')),
  discover: card(
    '#fff',
    `<path d="M14 20h14.5a3 3 0 0 0 3-3V12.5A26 26 0 0 1 14 20z" fill="#f48120"/><g font-family="Arial,Helvetica,sans-serif" font-size="4.7" font-weight="700" fill="#231f20"><text x="2.6" y="11.4">DISC</text><text x="19.4" y="11.4">VER</text></g><circle cx="17.1" cy="9.75" r="2" fill="#f48120"/>`,
  ),
  diners: card(
    '#fff',
    `<path fill="#0079be" transform="translate(7.6 1.6) scale(.7)" d="M16.506 11.982a6.026 6.026 0 0 0-3.866-5.618V17.6a6.025 6.025 0 0 0 3.866-5.618zM8.33 17.598V6.365a6.03 6.03 0 0 0-3.863 5.617 6.028 6.028 0 0 0 3.863 5.616zm2.156-15.113A9.497 9.497 0 0 0 .99 11.982a9.495 9.495 0 0 0 9.495 9.494c5.245 0 9.495-4.25 9.496-9.494a9.499 9.499 0 0 0-9.496-9.497Zm-.023 19.888C4.723 22.4 0 17.75 0 12.09 0 5.905 4.723 1.626 10.463 1.627h2.69C18.822 1.627 24 5.903 24 12.09c0 5.658-5.176 10.283-10.848 10.283"/>`,
  ),
  jcb: card(
    '#fff',
    `<rect x="4" y="3" width="7.6" height="14" rx="2" fill="#0e4c96"/><rect x="12.2" y="3" width="7.6" height="14" rx="2" fill="#d7261a"/><rect x="20.4" y="3" width="7.6" height="14" rx="2" fill="#1b9f3e"/>${letters(
      'M8.8 7v4.4a1.6 1.6 0 0 1-3.2 0M17.6 7.6a2.3 2.3 0 1 0 0 4.8M22.6 7h2.2a1.2 1.2 0 0 1 0 2.4h-2.2h2.5a1.3 1.3 0 0 1 0 2.6h-2.5z',
      1.2,
    )}`,
  ),
};

/** The sprite: one `<symbol id="<scheme>">` per mark. */
export const marksSprite = (): string =>
  `<svg xmlns="http://www.w3.org/2000/svg">${Object.entries(MARKS)
    .map(([scheme, mark]) => `<symbol id="${scheme}" viewBox="0 0 32 20">${mark}</symbol>`)
    .join('')}</svg>\n`;
