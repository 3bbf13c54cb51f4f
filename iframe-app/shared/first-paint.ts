/**
 * The classic script the service's card form page runs right after the form it sent (iframe-app/ssr/),
 * before the page's first paint and before any module has loaded: the element's look from the
 * address's fragment (its colour scheme; its tokens, re-validated), the fields' arrangement for this
 * width and language (shared/arrange.ts, as the element's code measures it later), and the frame's
 * one message to the parent, `hello`, with the form's height and the dialogs' texts. The form can be
 * typed in from now on (host.ts keeps what was typed when the code takes over), so the element is
 * shown at this height at once. The build compiles it to one inline script (scripts/vite-inline-frame.ts).
 */
import type { Hello } from '../../protocol/schemas/bridge.ts';
import { CARD_FIELDS, readFragment } from '../../protocol/runtime/frame-address.ts';
import { UUID } from '../../protocol/runtime/patterns.ts';
import { BRIDGE_VERSION } from '../../protocol/runtime/version.ts';
import type { Layout } from '../../protocol/schemas/frame-url.ts';
import { arrange } from './arrange.ts';
import { applyLanguage, dialogTexts, pageTexts } from './texts.ts';
import { applyTheme, applyTokens } from './theme.ts';
import type { FirstPaintApi } from './first-paint-api.ts';

// Lent to the page's module (first-paint-api.ts): one copy of each in the page.
(window as unknown as { cpeFirstPaint: FirstPaintApi }).cpeFirstPaint = { arrange, applyTheme, pageTexts, dialogTexts, applyLanguage };

const el = document.body.firstElementChild as HTMLElement;
const { session, look } = readFragment(location.hash);
applyTokens(look.tokens);
if (look.scheme) {
  el.setAttribute('scheme', look.scheme);
  document.documentElement.style.colorScheme = look.scheme;
}
/** Arranges the fields for the frame's width and says hello with the form's height. */
function hello(): void {
  // The page's code said it already (it ran first, on a busy machine): a second hello tells the element the frame reloaded.
  if ((window as { __cpeHello?: number }).__cpeHello !== undefined) return;
  if (el.shadowRoot) arrange(el, el.shadowRoot, el.getAttribute('layout') as Layout, CARD_FIELDS);
  const texts = pageTexts();
  const height = Math.ceil(el.getBoundingClientRect().height);
  // No height: the frame is not laid out yet (its iframe not displayed in the parent, or not yet laid
  // out there): a 0 would make the element collapse until the form's first resize. Its size comes with a resize.
  if (window.parent === window || !UUID.test(session) || !texts || !height) return;
  const said: Hello = { cpe: BRIDGE_VERSION, type: 'hello', session, height, texts: dialogTexts(texts.lang, texts.catalogue) };
  window.parent.postMessage(said, '*');
  // host.ts: the height the element has; it sends a resize if its code lays the form out otherwise.
  (window as { __cpeHello?: number }).__cpeHello = height;
}

// A frame of another site may parse its page before it knows its size (the element's width comes
// in the fragment): until then, no arrangement is measured and no height said (at most 200 ms, unless
// it has no size at all). Once said, a resize asks nothing more.
addEventListener('resize', hello);
if (!look.width || Math.abs(innerWidth - look.width) <= 1) hello();
else setTimeout(hello, 200);
