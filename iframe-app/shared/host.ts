import type { FrameConfig, FrameEventDetail, FrameEventName, Hello, Init as InitMessage } from '../../protocol/bridge.ts';
import { readFrameUrl } from '../../protocol/read-frame-url.ts';
import type { FrameParams } from '../../protocol/frame-url.ts';
import { Init } from '../../protocol/generated/guards.ts';
import { conforms } from '../../protocol/json-guard.ts';
import { BRIDGE_VERSION } from '../../protocol/version.ts';
import { FrameEnd, type Handlers, type PortLike } from '../../protocol/rpc.ts';
import type { CardInputs } from './card-inputs.ts';
import { applyLanguage, dialogTexts, en, loadCatalogue } from './i18n.ts';
import { acceptOneInit } from './parent-init.ts';
import { checkSession, PAID_STATUSES, refusal } from './session-check.ts';
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
 *   ready  {height}  once, when both the port and the first render (catalogue loaded) are there.
 *   resize {height}  after `ready`, whenever the content height changes (ResizeObserver).
 *   change state     on every input and blur, and after reset / tokenise validation.
 *   error            the language's catalogue failed to load (English is shown); a session refused.
 *
 * The frame is pinned to its merchant (finding 1 of issue 12): it accepts exactly one init per load
 * (parent-init.ts), whose `config.pubKey` (and every later `configure`'s) must be the `pk` of its
 * address; a session is taken only once the service says it is that merchant's, and that intent's
 * when the address names one (session-check.ts); and a card that produced a token for a payment that
 * then went through is not tokenised again until `reset()`.
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
  /** The session's check by the service (the frames that tokenise or read the intent only). */
  let checked: Promise<unknown> = Promise.resolve();
  let checking: string | undefined;
  /** The session of the last token, and whether its payment went through (then locked until reset). */
  let spent: FrameConfig['session'];
  let locked = false;
  const configure = (config: FrameConfig) => {
    if (config.pubKey !== params.pk) throw refusal('merchant_mismatch', "This frame serves the merchant of its address's pk only.");
    applyTheme(el, config);
    el.pubKey = config.pubKey;
    if (config.cardSchemesDisplay) el.display = config.cardSchemesDisplay;
    const session = config.session;
    const extra = config.extra ?? {};
    if (session && el.fields.includes('number') && session.sessionToken !== checking) {
      checking = session.sessionToken;
      // A new session after a token: did that token's payment go through? (The same session's
      // intent refuses a second card itself.) Unknown counts as yes.
      const paid = spent && !locked && checkSession(params.pk, spent, params.ok).then(
        (intent) => PAID_STATUSES.includes(intent.status),
        () => true,
      );
      checked = Promise.all([checkSession(params.pk, session, params.ok), paid]).then(([, wasPaid]) => {
        if (wasPaid) locked = true;
        if (checking !== session.sessionToken) return;
        el.session = session;
        el.applyExtra(extra);
      });
      checked.catch((error: { code: string; message: string }) => end?.emit('error', error));
    }
    el.applyExtra(extra);
  };
  const tokenise = async () => {
    await checked;
    if (locked) throw refusal('fields_locked', 'This card paid a payment that went through: reset() the form before another payment.');
    const result = await el.tokenise();
    spent = el.session;
    return result;
  };
  const handlers: Handlers = {
    configure: (config) => (configure(config), {}),
    tokenise,
    reset: () => (el.reset(), (locked = false), (spent = undefined), {}),
    focus: ({ position }) => (el.focusAt(position), {}),
    ...extra,
  };

  acceptOneInit(
    (init) => (conforms<InitMessage>(Init, init) && init.session === session && init.config.pubKey === params.pk ? init : undefined),
    (init, port) => {
      end = new FrameEnd(port as unknown as PortLike, handlers);
      configure(init.config);
      maybeReady();
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
