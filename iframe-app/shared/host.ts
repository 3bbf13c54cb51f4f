import type { FrameConfig, Hello } from '../../protocol/schemas/bridge.ts';
import { readFrameUrl } from '../../protocol/runtime/read-frame-url.ts';
import type { FrameParams } from '../../protocol/schemas/frame-url.ts';
import { Init } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { BRIDGE_VERSION } from '../../protocol/runtime/version.ts';
import { FrameEnd, type Handlers, type PortLike } from '../../protocol/runtime/rpc.ts';
import type { FrameApp, FrameEventRequest } from './frame-app.ts';
import { applyLanguage, dialogTexts, en, loadCatalogue } from './i18n.ts';
import { acceptOneInit } from './parent-init.ts';
import { refusal } from './session-check.ts';
import { applyTheme } from './theme.ts';

export type { FrameApp, FrameEventRequest };

/** No inputs, only this sentence, when the frame address is not one the SDK builds. */
export function renderUnavailable(text = en.unavailable): void {
  const p = document.createElement('p');
  p.className = 'unavailable';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  document.body.replaceChildren(p);
}

/**
 * Runs a bridge frame's app (frame-app.ts): reads its address, says `hello` to the parent, accepts the
 * parent's `init` (the right source, session uuid and, where the browser tells, origin) with its
 * private port, loads the language's catalogue, renders once the init is in, and then:
 *
 *   ready  {height}  once, when both the port and the first render (catalogue loaded) are there.
 *   resize {height}  after `ready`, whenever the content height changes (ResizeObserver).
 *   change state     on every input and blur, and after reset / tokenise validation.
 *   error            the language's catalogue failed to load (English is shown); a session refused.
 *
 * The frame is pinned to its merchant (finding 1 of issue 12): it accepts exactly one init per load
 * (parent-init.ts), whose `config.pubKey` (and every later `configure`'s) must be the `pk` of its
 * address; the card frames take a session only once the service says it is that merchant's
 * (card-app.ts).
 *
 * `create` builds the app, or returns undefined when the address lacks what it needs.
 */
export async function startFrame(create: (params: FrameParams) => FrameApp | undefined): Promise<FrameApp | undefined> {
  const address = readFrameUrl(location);
  const app = address && create(address.params);
  if (!address || !app || window.parent === window) {
    const tag = new URLSearchParams(location.search).get('lang') ?? 'en';
    const { lang, catalogue } = await loadCatalogue(tag);
    applyLanguage(lang, catalogue);
    renderUnavailable(catalogue.unavailable);
    return undefined;
  }
  const { params, session } = address;
  const el = app.element;
  el.layout = params.layout ?? 'stack';
  el.theme = params.theme ?? 'auto';

  let end: FrameEnd | undefined;
  let initialised!: (end: FrameEnd) => void;
  const initArrived = new Promise<FrameEnd>((resolve) => (initialised = resolve));
  const height = () => app.height?.() ?? Math.ceil(el.getBoundingClientRect().height);
  const configure = (config: FrameConfig) => {
    if (config.pubKey !== params.pk) throw refusal('merchant_mismatch', "This frame serves the merchant of its address's pk only.");
    applyTheme(el, config);
    app.configure(config);
  };
  const handlers: Handlers = { configure: (config) => (configure(config), {}), ...app.handlers };

  acceptOneInit(
    (init) => (conforms(Init, init) && init.session === session && init.config.pubKey === params.pk ? init : undefined),
    (init, port) => {
      end = new FrameEnd(port as unknown as PortLike, handlers);
      configure(init.config);
      initialised(end);
    },
  );
  const early = window as unknown as { __cpeHello?: boolean };
  el.addEventListener('state', (event) => end?.emit('change', (event as CustomEvent).detail));
  el.addEventListener('frame-event', (event) => {
    const { name, detail } = (event as CustomEvent<FrameEventRequest>).detail;
    end?.emit(name, detail);
  });
  if (!early.__cpeHello) window.parent.postMessage({ cpe: BRIDGE_VERSION, type: 'hello', session } satisfies Hello, '*');

  const loaded = await loadCatalogue(params.lang);
  applyLanguage(loaded.lang, loaded.catalogue);
  el.catalogue = loaded.catalogue;
  document.title = app.title();
  // The form renders once the init is in (the SDK shows the frame only at ready): its first render
  // has the config's look (the scheme marks, the arrangement), so the height ready reports is the
  // form's as the shopper sees it, and ready follows that render in the same task. Rendered first,
  // the init's message waited behind the render and the first paint, and the config cost a second render.
  const toParent = await initArrived;
  document.body.append(el);
  await el.updateComplete;
  let lastHeight = height();
  toParent.emit('ready', { height: lastHeight, texts: dialogTexts(document.documentElement.lang, el.catalogue) });
  if (loaded.failed) toParent.emit('error', { code: 'catalogue_failed', message: `The "${params.lang}" texts could not be loaded; the form is shown in English.` });
  new ResizeObserver(() => {
    const h = height();
    if (h !== lastHeight) toParent.emit('resize', { height: (lastHeight = h) });
  }).observe(el, { box: 'border-box' });
  return app;
}
