/**
 * Styles of the merchant-side elements, as constructed stylesheets (adoptedStyleSheets): a strict
 * Content-Security-Policy without `'unsafe-inline'` styles does not block them, and sizes set later
 * go through the CSSOM (`element.style.height = …`), which CSP allows too.
 */

/**
 * A frame's box: the reserved minimum height at once, a skeleton until `ready`, then the frame's own
 * height. The skeleton (pulsing) is tinted from the page's own text colour (or `--cpe-bg-alt`), so it
 * is light on a light page and dark on a dark one before any frame has loaded.
 */
export const BOX_CSS = `:host{display:block;position:relative;box-sizing:border-box;min-width:min(100%,200px)}
iframe{border:0;width:100%;height:100%;display:block;position:absolute;inset:0;opacity:0}
iframe.ready{position:static;opacity:1}
.skeleton{position:absolute;inset:0;border-radius:var(--cpe-radius,6px);background:var(--cpe-bg-alt,color-mix(in srgb,currentColor 8%,transparent));animation:cpe-pulse .9s ease-in-out infinite alternate}
@keyframes cpe-pulse{to{opacity:.5}}
@media (prefers-reduced-motion:reduce){.skeleton{animation:none}}`;

const sheets = new Map<string, CSSStyleSheet>();

/** One shared constructed sheet per CSS text. */
export function sheet(css: string): CSSStyleSheet {
  let made = sheets.get(css);
  if (!made) sheets.set(css, (made = new CSSStyleSheet())), made.replaceSync(css);
  return made;
}
