import type { FrameConfig, FrameEventDetail, FrameEventName, Init, Method, ParamsOf, ResultOf } from '../../protocol/schemas/bridge.ts';
import { Hello } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { BridgeRequestError, ElementEnd } from '../../protocol/runtime/rpc-element.ts';
import { BRIDGE_VERSION } from '../../protocol/runtime/version.ts';
import { frameUrl, type FrameAppName } from '../../protocol/runtime/frame-address.ts';
import type { ElementsController } from '../controller.ts';

export interface FrameOwner {
  /** The config sent in Init (and again with `configure`). */
  frameConfig(): FrameConfig;
  frameEvent<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void;
}

/**
 * One hosted iframe and its end of the bridge (protocol/schemas/bridge.ts). The frame's `Hello` is accepted
 * only from the service origin, from this iframe's window and with this mount's session uuid; the
 * answer `Init` goes to the service origin only and hands over port2 of a fresh MessageChannel.
 * A later `Hello` (the frame reloaded) closes the old port and hands over a new one.
 */
export class Frame {
  readonly session = crypto.randomUUID();
  readonly iframe = document.createElement('iframe');
  /** Shown in the reserved space until the frame is ready. */
  readonly skeleton = document.createElement('div');
  end?: ElementEnd;
  ready = false;
  /** A wrapper the frame lives in, removed with it (the card fields' boxes). */
  box?: Element;
  /** The service's origin: the only one this frame's messages are taken from and sent to. */
  readonly origin: string;

  /**
   * The service's `app` page for `controller`'s mount: its address carries the key, the session's
   * opaque key and the language, then the page's own `params`.
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
    this.#requestTimeoutMs = controller.requestTimeoutMs;
    const iframe = this.iframe;
    iframe.title = title;
    // Autofill into the frames: Chromium's policy-controlled feature `autofill` (chromium
    // docs/security/autofill-across-iframes.md), granted only where the browser knows it: elsewhere
    // (Chromium 156 included) the name would log "Unrecognized feature".
    iframe.allow = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features().includes('autofill') ? 'payment; autofill' : 'payment';
    iframe.src = frameUrl(origin, app, { pk: controller.pubKey, ok: controller.current?.opaqueKey, lang: language, ...params }, this.session);
    this.skeleton.className = 'skeleton';
    this.skeleton.part = 'skeleton';
    addEventListener('message', this.#hello);
  }

  #hello = (event: MessageEvent) => {
    if (event.origin !== this.origin || event.source !== this.iframe.contentWindow || !event.source) return;
    if (!conforms(Hello, event.data) || event.data.session !== this.session) return;
    this.end?.close('The payment frame reloaded.');
    this.ready = false;
    const { port1, port2 } = new MessageChannel();
    this.end = new ElementEnd(port1, (name, detail) => {
      if (name === 'ready') {
        this.ready = true;
        this.iframe.className = 'ready';
        this.skeleton.remove();
      }
      if (name === 'ready' || name === 'resize') this.iframe.style.height = `${Math.min(Math.ceil((detail as { height: number }).height), 4000)}px`;
      this.owner.frameEvent(this, name, detail);
    });
    const init: Init = { cpe: BRIDGE_VERSION, type: 'init', session: this.session, config: this.owner.frameConfig() };
    event.source.postMessage(init, { targetOrigin: this.origin, transfer: [port2] });
  };

  /** Puts the skeleton and the (still invisible) iframe into `parent`. */
  place(parent: ParentNode): this {
    parent.append(this.skeleton, this.iframe);
    return this;
  }

  readonly #requestTimeoutMs?: number;

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
