import type { ChangeState, FrameConfig, Hello } from '../../protocol/schemas/bridge.ts';
import { readFrameUrl } from '../../protocol/runtime/read-frame-url.ts';
import type { FrameParams } from '../../protocol/schemas/frame-url.ts';
import { Init } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { BRIDGE_VERSION } from '../../protocol/runtime/version.ts';
import { FrameEnd, type Handlers, type PortLike } from '../../protocol/runtime/rpc.ts';
import type { FrameApp, FrameEventRequest, Typed } from './frame-app.ts';
import { acceptOneInit } from './parent-init.ts';
import { refusal } from './session-check.ts';
import { applyLanguage, dialogTexts, type Texts } from './texts.ts';
import { applyTheme } from './theme.ts';

export type { FrameApp, FrameEventRequest };

/** No inputs, only this sentence, when the frame address is not one the SDK builds. */
export function renderUnavailable(text: string): void {
  const p = document.createElement('p');
  p.className = 'unavailable';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  document.body.replaceChildren(p);
}

/**
 * Runs a bridge frame's app (frame-app.ts): reads its address, shows the form, says `hello` to the
 * parent, accepts the parent's `init` (the right source, session uuid and, where the browser tells,
 * origin) with its private port, and then:
 *
 *   hello  {height, texts}  once, as soon as the form can be typed in: its first render (the look
 *          from the address's fragment, the texts from `texts`), or, when the service sent the form
 *          in the page, already before the first paint (first-paint.ts); the element shows the frame
 *          at that height and answers with the init (the session in it) once its session is there.
 *   resize {height}  whenever the content height changes from then on (ResizeObserver).
 *   change state     on every input and blur, and after reset / tokenise validation.
 *   error            the language's catalogue failed to load (English is shown); a session refused.
 *
 * A form the service sent in the page (the card form) is taken over after its first paint: what was
 * typed into it before the code ran is kept (typed values, focus and caret) as Lit draws it anew.
 *
 * The frame is pinned to its merchant (finding 1 of issue 12): it accepts exactly one init per load
 * (parent-init.ts), whose `config.pubKey` (and every later `configure`'s) must be the `pk` of its
 * address; the card frames take a session only once the service says it is that merchant's
 * (card-app.ts).
 *
 * `create` builds the app, or returns undefined when the address lacks what it needs; `texts` gives
 * the language's texts (a catalogue fetched on demand, or those the service put in the page).
 */
export async function startFrame(create: (params: FrameParams) => FrameApp | undefined, texts: (lang: string) => Texts | Promise<Texts>): Promise<FrameApp | undefined> {
  const address = readFrameUrl(location);
  const app = address && create(address.params);
  if (!address || !app || window.parent === window) {
    const { lang, catalogue } = await texts(new URLSearchParams(location.search).get('lang') ?? 'en');
    applyLanguage(lang, catalogue);
    renderUnavailable(catalogue.unavailable);
    return undefined;
  }
  const { params, session, look } = address;
  const el = app.element;
  el.layout = params.layout ?? 'stack';
  el.theme = params.theme ?? 'auto';
  // The look the element had when it built the address: the first render has it (no restyle at init).
  applyTheme(el, look);

  let end: FrameEnd | undefined;
  let loaded: Texts | undefined;
  /** The height the element last heard (hello, resize); a change goes as `resize` once the port is there. */
  let lastHeight: number | undefined;
  const resized = () => {
    const h = height();
    if (end && lastHeight !== undefined && h !== lastHeight) end.emit('resize', { height: (lastHeight = h) });
  };
  const catalogueFailed = () => end!.emit('error', { code: 'catalogue_failed', message: `The "${params.lang}" texts could not be loaded; the form is shown in English.` });
  /** The last change before the port came (typed before the code ran): sent once it is there. */
  let unsent: ChangeState | undefined;
  const height = () => app.height?.() ?? Math.ceil(el.getBoundingClientRect().height);
  const configure = (config: FrameConfig) => {
    if (config.pubKey !== params.pk) throw refusal('merchant_mismatch', "This frame serves the merchant of its address's pk only.");
    applyTheme(el, config);
    app.configure(config);
  };
  /** The form the service sent is not taken over yet (its code runs after its first paint). */
  let takingOver = el.isConnected;
  const handlers: Handlers = { configure: (config) => (configure(config), {}), ...app.handlers };
  // A focus request that waited in the port while the shopper typed into the served form does not pull them back.
  const focus = handlers.focus;
  if (focus) handlers.focus = (params) => (takingOver && el.shadowRoot?.activeElement ? {} : focus(params));

  acceptOneInit(
    (init) => (conforms(Init, init) && init.session === session && init.config.pubKey === params.pk ? init : undefined),
    (init, port) => {
      end = new FrameEnd(port as unknown as PortLike, handlers);
      configure(init.config);
      resized();
      if (unsent) end.emit('change', unsent);
      unsent = undefined;
      if (loaded?.failed) catalogueFailed();
    },
  );
  el.addEventListener('state', (event) => (end ? end.emit('change', (event as CustomEvent).detail) : (unsent = (event as CustomEvent).detail)));
  el.addEventListener('frame-event', (event) => {
    const { name, detail } = (event as CustomEvent<FrameEventRequest>).detail;
    end?.emit(name, detail);
  });

  loaded = await texts(params.lang);
  if (loaded.failed && end) catalogueFailed();
  applyLanguage(loaded.lang, loaded.catalogue);
  el.catalogue = loaded.catalogue;
  document.title = app.title();
  if (el.isConnected) {
    // The form the service sent is painted first; Lit takes it over in the task after that paint.
    await afterPaint();
    await takeOver(el);
    takingOver = false;
  } else document.body.append(el);
  await el.updateComplete;
  // The height the element has: the first-paint script's hello, or this first render's.
  const said = (window as unknown as { __cpeHello?: number }).__cpeHello;
  lastHeight = said ?? height();
  if (said === undefined) {
    const hello: Hello = { cpe: BRIDGE_VERSION, type: 'hello', session, height: lastHeight, texts: dialogTexts(loaded.lang, loaded.catalogue) };
    window.parent.postMessage(hello, '*');
    // The first-paint script, still waiting for the frame's width, then says none of its own (one hello per load).
    (window as unknown as { __cpeHello?: number }).__cpeHello = lastHeight;
  }
  new ResizeObserver(resized).observe(el, { box: 'border-box' });
  resized();
  return app;
}

/** Resolves in the task after the next paint (a frame callback runs just before it). */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/**
 * Takes over the form the service sent (its element already in the page, `defer-hydration` holding
 * Lit back): reads what was typed, lets Lit draw the form anew, then puts the typed text back
 * through the element's own formatting, the focus and caret where they were. All within one task:
 * nothing is painted in between.
 */
async function takeOver(el: FrameApp['element']): Promise<void> {
  const root = el.shadowRoot;
  const typed: Typed = { values: [] };
  for (const input of root?.querySelectorAll<HTMLInputElement>('input[data-field]') ?? []) if (input.value) typed.values.push([input.dataset.field!, input.value]);
  const active = root?.activeElement as HTMLInputElement | null;
  if (active?.dataset.field) [typed.focused, typed.caret] = [active.dataset.field, active.selectionStart];
  if (el.takeOver) el.takeOver();
  else el.removeAttribute('defer-hydration');
  await el.updateComplete;
  el.adopt?.(typed);
}
