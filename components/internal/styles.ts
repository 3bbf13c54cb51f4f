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

/**
 * The SDK's modal dialogs (3-D Secure, wallet sheet): a title bar with a close button over the
 * service's page, nothing below it, in the element's colour scheme (`.dark`) and `--cpe-*` tokens.
 * The challenge is 390 px wide (EMV window 02) and 340 px tall (the test page's content), full
 * screen (05) on narrow viewports. The dialog itself
 * holds the focus when it opens: no ring there; the close button's ring shows for the keyboard.
 */
export const DIALOG_CSS = `dialog{--b:var(--cpe-bg,#fff);--l:var(--cpe-border-subtle,#dfe2e7);padding:0;border:0;border-radius:12px;width:390px;max-width:100vw;overflow:hidden;background:var(--b);color:var(--cpe-fg,#1a1c1f);font-size:16px;color-scheme:light}
dialog.dark{--b:var(--cpe-bg,#16181c);--l:var(--cpe-border-subtle,#3d434c);color:var(--cpe-fg,#eef0f3);color-scheme:dark}
dialog:focus{outline:0}
dialog::backdrop{background:#0008}
header{display:flex;align-items:center;min-height:52px;box-sizing:border-box;padding-inline:20px 52px;border-bottom:1px solid var(--l)}
h2{margin:0;font-size:1rem}
.close{position:absolute;top:6px;inset-inline-end:6px;width:40px;height:40px;border:0;border-radius:8px;background:none;color:inherit;font-size:26px;line-height:1;cursor:pointer}
.close:focus-visible{outline:2px solid var(--cpe-focus,#1a5fd6);outline-offset:-2px}
dialog iframe{border:0;display:block;width:100%;height:340px;position:static;opacity:1;background:var(--b)}
@media (max-width:480px){dialog{width:100vw;height:100dvh;max-height:none;border-radius:0}dialog iframe{height:calc(100dvh - 53px)}}`;

const sheets = new Map<string, CSSStyleSheet>();

/** One shared constructed sheet per CSS text. */
export function sheet(css: string): CSSStyleSheet {
  let made = sheets.get(css);
  if (!made) sheets.set(css, (made = new CSSStyleSheet())), made.replaceSync(css);
  return made;
}
