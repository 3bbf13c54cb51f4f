import type { FrameConfig, FrameEventDetail, FrameEventName, Hello, Init as InitMessage } from '../../protocol/bridge.ts';
import { readFrameUrl } from '../../protocol/read-frame-url.ts';
import type { FrameParams } from '../../protocol/frame-url.ts';
import { Init } from '../../protocol/generated/guards.ts';
import { conforms } from '../../protocol/json-guard.ts';
import { BRIDGE_VERSION } from '../../protocol/version.ts';
import { FrameEnd, type Handlers, type PortLike } from '../../protocol/rpc.ts';
import type { CardInputs } from './card-inputs.ts';
import { applyLanguage, dialogTexts, en, loadCatalogue } from './i18n.ts';
import { startSession } from './session-start.ts';
import { applyTheme } from './theme.ts';

/**
 * What a bridge frame's app element offers the host: the card elements (CardInputs) have all of it;
 * a frame without card fields (the wallet button) implements the same members (`fields` empty).
 * Optional: `reportedHeight` (the height `ready`/`resize` report, when it is not the element's box)
 * and `frameTitle` (the document title). The element may dispatch `frame-event` CustomEvents with
 * `{name, detail}`, which the host emits on the port (the Flow's `submit`/`retry`, the wallet's `press`).
 */
export type FrameElement = HTMLElement &
  Pick<CardInputs, 'layout' | 'theme' | 'colorScheme' | 'pubKey' | 'session' | 'display' | 'cat' | 'fields' | 'applyExtra' | 'tokenise' | 'reset' | 'focusAt' | 'updateComplete'> & {
    reportedHeight?(): number;
    frameTitle?(): string;
  };

/** The detail of a `frame-event` an app element dispatches for the host to emit. */
export type FrameEventRequest = { [E in FrameEventName]: { name: E; detail: FrameEventDetail<E> } }[FrameEventName];

/** No inputs, only this sentence, when the frame address is not one the SDK builds. */
export function renderUnavailable(text = en.unavailable): void {
  const p = document.createElement('p');
  p.className = 'unavailable';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  document.body.replaceChildren(p);
}

/**
 * Runs a card frame: reads its address, says `hello` to the parent, accepts the parent's `init` (the
 * right source, session uuid and, where the browser tells, origin) with its private port, loads the
 * language's catalogue, renders, and then:
 *
 *   ready  {height}  once per handshake, when both the port and the first render (catalogue loaded)
 *                    are there; a second `init` (the parent re-handshakes) replaces the port and
 *                    sends `ready` again on the new one.
 *   resize {height}  after `ready`, whenever the content height changes (ResizeObserver).
 *   change state     on every input and blur, and after reset / tokenise validation.
 *   error            the language's catalogue failed to load (English is shown).
 *
 * `create` builds the app's element, or returns undefined when the address lacks what it needs.
 */
export async function startFrame<T extends FrameElement = CardInputs>(create: (params: FrameParams) => T | undefined, extra: Handlers = {}): Promise<T | undefined> {
  const address = readFrameUrl(location);
  const el = address && create(address.params);
  if (!address || !el || window.parent === window) {
    const tag = new URLSearchParams(location.search).get('lang') ?? 'en';
    const { lang, cat } = await loadCatalogue(tag);
    applyLanguage(lang, cat);
    renderUnavailable(cat.unavailable);
    return undefined;
  }
  const { params, session } = address;
  el.layout = params.layout ?? 'stack';
  el.theme = params.theme ?? 'auto';

  let end: FrameEnd | undefined;
  let rendered = false;
  let readySent = false;
  let lastHeight = 0;
  let failed = false;
  const height = () => el.reportedHeight?.() ?? Math.ceil(el.getBoundingClientRect().height);
  const maybeReady = () => {
    if (!end || !rendered || readySent) return;
    readySent = true;
    lastHeight = height();
    end.emit('ready', { height: lastHeight, texts: dialogTexts(document.documentElement.lang, el.cat) });
    if (failed) end.emit('error', { code: 'catalogue_failed', message: `The "${params.lang}" texts could not be loaded; the form is shown in English.` });
  };
  const configure = (config: FrameConfig) => {
    applyTheme(el, config);
    el.pubKey = config.pubKey;
    el.session = config.session;
    // One frame per element starts the session: the card form, or the number field of a group.
    if (el.fields.includes('number')) startSession(config.pubKey, config.session);
    if (config.cardSchemesDisplay) el.display = config.cardSchemesDisplay;
    el.applyExtra(config.extra ?? {});
  };
  const handlers: Handlers = {
    configure: (config) => (configure(config), {}),
    tokenise: () => el.tokenise(),
    reset: () => (el.reset(), {}),
    focus: ({ position }) => (el.focusAt(position), {}),
    ...extra,
  };

  const accept = (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    const init = event.data as unknown;
    if (!conforms<InitMessage>(Init, init) || init.session !== session) return;
    const ancestor = location.ancestorOrigins?.[0];
    if (ancestor && event.origin !== ancestor) return;
    const port = event.ports[0];
    if (!port) return;
    end?.close();
    end = new FrameEnd(port as unknown as PortLike, handlers);
    readySent = false;
    configure(init.config);
    maybeReady();
  };
  // The built page's first script (early-hello.js) may have said hello and kept the parent's init.
  const early = window as unknown as { __cpeEarly?: MessageEvent[]; __cpeHello?: boolean };
  for (const event of early.__cpeEarly?.splice(0) ?? []) accept(event);
  early.__cpeEarly = undefined;
  window.addEventListener('message', accept);
  el.addEventListener('state', (event) => end?.emit('change', (event as CustomEvent).detail));
  el.addEventListener('frame-event', (event) => {
    const { name, detail } = (event as CustomEvent<FrameEventRequest>).detail;
    end?.emit(name, detail);
  });
  if (!early.__cpeHello) window.parent.postMessage({ cpe: BRIDGE_VERSION, type: 'hello', session } satisfies Hello, '*');

  const loaded = await loadCatalogue(params.lang);
  failed = !!loaded.failed;
  applyLanguage(loaded.lang, loaded.cat);
  el.cat = loaded.cat;
  document.title = el.frameTitle?.() ?? (el.fields.length === 1 ? loaded.cat[el.fields[0]!] : loaded.cat.formTitle);
  document.body.append(el);
  await el.updateComplete;
  new ResizeObserver(() => {
    if (!end || !readySent) return;
    const h = height();
    if (h !== lastHeight) end.emit('resize', { height: (lastHeight = h) });
  }).observe(el, { box: 'border-box' });
  rendered = true;
  maybeReady();
  return el;
}
