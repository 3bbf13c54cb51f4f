import type { DialogTexts, FrameConfig, FrameEventDetail, FrameEventName, Init, Method, ParamsOf, ResultOf } from '../../protocol/schemas/bridge.ts';
import { Hello } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { BridgeRequestError, ElementEnd } from '../../protocol/runtime/rpc-element.ts';
import { BRIDGE_VERSION } from '../../protocol/runtime/version.ts';
import { frameUrl, type FrameAppName, type FrameLook } from '../../protocol/runtime/frame-address.ts';
import type { ElementsController } from '../controller.ts';

export interface FrameOwner {
  /** The config sent in Init (and again with `configure`). */
  frameConfig(): FrameConfig;
  /** The look the frame paints first (its address's fragment), with the width the frame will have when the owner knows it (the frame arranges its form for it before its first paint). */
  frameLook(): FrameLook;
  /** The frame said hello: its form can be typed in and is shown at its height. */
  frameHello(frame: Frame, texts?: DialogTexts): void;
  frameEvent<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void;
}

/** The service origins whose renderer process a hidden page keeps (`keepProcess`). */
const kept = new Set<string>();

/**
 * After a first frame of `origin` said hello: one hidden, empty page of the service (`/frames/keep/`)
 * for as long as the page lives. Chromium gives each site its renderer process and ends it with the
 * site's last frame: an element mounted again (a single-page app's next checkout, a changed option)
 * started a new process every time (measured in bench/sdk's warm remounts). Stripe.js keeps hidden
 * frames of its own on the page likewise.
 */
function keepProcess(origin: string, pk: string): void {
  if (kept.has(origin)) return;
  kept.add(origin);
  const page = document.createElement('iframe');
  page.hidden = true;
  page.tabIndex = -1;
  page.src = `${origin}/frames/keep/?pk=${encodeURIComponent(pk)}`;
  document.body.append(page);
}

/** Once the page is idle (or soon after, where the browser has no idle callbacks). */
const afterReady = (run: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 1000 }) : setTimeout(run, 50));

/**
 * One hosted iframe and its end of the bridge (protocol/schemas/bridge.ts). The frame's `Hello` is accepted
 * only from the service origin, from this iframe's window and with this mount's session uuid: the
 * frame is shown at once at the height it carries (its form is already there). `connect` answers it
 * with `Init` (the config, the session in it), to the service origin only, handing over port2 of a
 * fresh MessageChannel: the frame is then ready. A later `Hello` (the frame reloaded) closes the old
 * port; the owner connects the new page again.
 */
export class Frame {
  readonly session = crypto.randomUUID();
  readonly iframe = document.createElement('iframe');
  /** Shown in the reserved space until the frame says hello. */
  readonly skeleton = document.createElement('div');
  end?: ElementEnd;
  /** The port is handed over (after the hello). */
  ready = false;
  /** A wrapper the frame lives in, removed with it (the card fields' boxes). */
  box?: Element;
  /** The service's origin: the only one this frame's messages are taken from and sent to. */
  readonly origin: string;
  /** The frame's window once it said hello (the init goes there). */
  #window?: MessageEventSource;
  readonly #pk: string;

  /**
   * The service's `app` page for `controller`'s mount: its address carries the key, the session's
   * opaque key and the language, then the page's own `params`; its fragment the mount's uuid and look.
   */
  constructor(
    readonly owner: FrameOwner,
    controller: ElementsController,
    app: FrameAppName,
    language = 'en',
    params: Record<string, string | undefined>,
    title: string,
  ) {
    const origin = (this.origin = controller.serviceOrigin);
    this.#pk = controller.pubKey;
    this.#requestTimeoutMs = controller.requestTimeoutMs;
    const iframe = this.iframe;
    iframe.title = title;
    // Autofill into the frames: Chromium's policy-controlled feature `autofill` (chromium
    // docs/security/autofill-across-iframes.md), granted only where the browser knows it: elsewhere
    // (Chromium 156 included) the name would log "Unrecognized feature".
    iframe.allow = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features().includes('autofill') ? 'payment; autofill' : 'payment';
    const look = owner.frameLook();
    if (look.scheme) iframe.style.colorScheme = look.scheme;
    iframe.src = frameUrl(origin, app, { pk: controller.pubKey, ok: controller.current?.opaqueKey, lang: language, ...params }, this.session, look);
    this.skeleton.className = 'skeleton';
    this.skeleton.part = 'skeleton';
    addEventListener('message', this.#hello);
  }

  #hello = (event: MessageEvent) => {
    if (event.origin !== this.origin || event.source !== this.iframe.contentWindow || !event.source) return;
    if (!conforms(Hello, event.data) || event.data.session !== this.session) return;
    this.end?.close('The payment frame reloaded.');
    this.end = undefined;
    this.ready = false;
    this.#window = event.source;
    this.iframe.className = 'ready';
    this.skeleton.remove();
    this.#height(event.data.height);
    this.owner.frameHello(this, event.data.texts);
    // Not in this task: an iframe's insertion costs the page a few milliseconds, and its page's commit
    // would take the frame's renderer while it paints the form.
    afterReady(() => keepProcess(this.origin, this.#pk));
  };

  #height(height: number): void {
    this.iframe.style.height = `${Math.min(Math.ceil(height), 4000)}px`;
  }

  /** Hands the frame its port with the config (once per page load of the frame, after its hello). */
  connect(): void {
    if (!this.#window || this.end) return;
    const { port1, port2 } = new MessageChannel();
    this.end = new ElementEnd(port1, (name, detail) => {
      if (name === 'resize') this.#height((detail as FrameEventDetail<'resize'>).height);
      this.owner.frameEvent(this, name, detail);
    });
    const init: Init = { cpe: BRIDGE_VERSION, type: 'init', session: this.session, config: this.owner.frameConfig() };
    this.#window.postMessage(init, { targetOrigin: this.origin, transfer: [port2] });
    this.ready = true;
  }

  /** Puts the skeleton and the (still invisible) iframe into `parent`. */
  place(parent: ParentNode): this {
    parent.append(this.skeleton, this.iframe);
    return this;
  }

  readonly #requestTimeoutMs?: number;

  /** A request before the port is handed over is refused; after, it waits in the port until the frame's code takes it. */
  request<M extends Method>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    return this.end ? this.end.request(method, params, this.#requestTimeoutMs) : Promise.reject(new BridgeRequestError('not_ready', 'The payment frame is not ready yet.'));
  }

  destroy(): void {
    removeEventListener('message', this.#hello);
    this.end?.close();
    this.end = undefined;
    this.iframe.remove();
    this.skeleton.remove();
    this.box?.remove();
  }
}
