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
import { dialogTexts, pageTexts } from './texts.ts';
import { applyTokens } from './theme.ts';

const el = document.body.firstElementChild as HTMLElement;
const { session, look } = readFragment(location.hash);
applyTokens(look.tokens);
if (look.scheme) {
  el.setAttribute('scheme', look.scheme);
  document.documentElement.style.colorScheme = look.scheme;
}
if (el.shadowRoot) arrange(el, el.shadowRoot, el.getAttribute('layout') as Layout, CARD_FIELDS);
// The element's focus() focuses this frame before its code may have run: the first field takes it
// (after the focus settles, so a click on another field keeps its own).
addEventListener('focus', () => setTimeout(() => el.shadowRoot?.activeElement || el.shadowRoot?.querySelector<HTMLInputElement>('input')?.focus()));
const texts = pageTexts();
if (window.parent !== window && UUID.test(session) && texts) {
  const hello: Hello = { cpe: BRIDGE_VERSION, type: 'hello', session, height: Math.ceil(el.getBoundingClientRect().height), texts: dialogTexts(texts.lang, texts.catalogue) };
  window.parent.postMessage(hello, '*');
  (window as { __cpeHello?: boolean }).__cpeHello = true;
}
