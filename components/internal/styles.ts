/**
 * Styles of the merchant-side elements, as constructed stylesheets (adoptedStyleSheets): a strict
 * Content-Security-Policy without `'unsafe-inline'` styles does not block them, and sizes set later
 * go through the CSSOM (`element.style.height = …`), which CSP allows too.
 */

/** A frame's box: the reserved minimum height at once, a skeleton until `ready`, then the frame's own height. */
export const BOX_CSS = `:host{display:block;position:relative;box-sizing:border-box;min-width:min(100%,200px)}
iframe{border:0;width:100%;height:100%;display:block;position:absolute;inset:0;opacity:0}
iframe.ready{position:static;opacity:1}
.skeleton{position:absolute;inset:0;border-radius:var(--cpe-radius,6px);background:linear-gradient(90deg,var(--cpe-bg-alt,#eceef1) 30%,var(--cpe-bg,#f7f8fa) 50%,var(--cpe-bg-alt,#eceef1) 70%) 0 0/300% 100%;animation:cpe-shimmer 1.4s linear infinite}
@keyframes cpe-shimmer{to{background-position:-150% 0}}
@media (prefers-reduced-motion:reduce){.skeleton{animation:none}}`;

/** The 3-D Secure modal: EMV window 02 (390×400), full screen (05) on narrow viewports. */
export const DIALOG_CSS = `dialog{padding:0;border:0;border-radius:8px;width:390px;max-width:100vw;box-sizing:border-box;background:#fff;color:#1a1a1a;font:16px system-ui,sans-serif}
dialog::backdrop{background:rgb(0 0 0/.5)}
dialog h2{font-size:1rem;margin:0;padding:12px 16px}
dialog iframe{border:0;display:block;width:100%;height:400px;position:static;opacity:1}
dialog button{font:inherit;margin:8px 16px 12px;padding:6px 14px;border-radius:6px;border:1px solid #888;background:#fff;color:inherit}
dialog button:focus-visible{outline:3px solid #1a5fd6;outline-offset:2px}
@media (max-width:480px){dialog{width:100vw;height:100dvh;max-height:none;border-radius:0}dialog iframe{height:calc(100dvh - 110px)}}`;

const sheets = new Map<string, CSSStyleSheet>();

/** One shared constructed sheet per CSS text. */
export function sheet(css: string): CSSStyleSheet {
  let made = sheets.get(css);
  if (!made) sheets.set(css, (made = new CSSStyleSheet())), made.replaceSync(css);
  return made;
}
