import { PopupInit } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { UUID } from '../../protocol/runtime/patterns.ts';
import { POPUP_CLOSE_TYPE, POPUP_READY_TYPE } from '../../protocol/runtime/popup.ts';
import type { PopupClose, PopupIntent, PopupReady } from '../../protocol/schemas/popup.ts';
import { acceptOneInit } from './parent-init.ts';

/**
 * The page's end of the one page-to-popup channel (protocol/schemas/popup.ts), for the service's
 * pages the SDK shows in a dialog (the 3-D Secure challenge page, the wallet sheet). The popup's
 * uuid is the address's fragment. `ready` tells the parent (that uuid and a height: no secret, so
 * target '*'); the one init per document (parent-init.ts: from `window.parent`, from its ancestor's
 * origin where the browser tells) must carry the uuid and, when `origins` are given, come from one
 * of them. Messages sent before the port are kept until it comes; every message carries the uuid.
 */
export class PopupPage {
  readonly session: string;
  #port?: MessagePort;
  #queue: object[] = [];

  constructor(
    /** The init's intent (the wallet sheet's session), once the init came. */
    onInit: (intent: PopupIntent | undefined) => void = () => {},
    origins?: readonly string[],
    private readonly win: Window = window,
  ) {
    this.session = win.location.hash.slice(1);
    acceptOneInit(
      (data, origin) => (conforms(PopupInit, data) && data.session === this.session && (!origins || origins.includes(origin)) ? data : undefined),
      (init, port) => {
        this.#port = port;
        for (const message of this.#queue.splice(0)) port.postMessage(message);
        onInit(init.intent);
      },
    );
  }

  /** A page opened by the SDK: framed, with a uuid in its fragment. */
  get opened(): boolean {
    return this.win.parent !== this.win && UUID.test(this.session);
  }

  /** On the port, or kept until it comes. */
  send(message: object): void {
    const data = { ...message, session: this.session };
    if (this.#port) this.#port.postMessage(data);
    else this.#queue.push(data);
  }

  /** Listening (first, on the window), or a new height (on the port). */
  ready(height?: number): void {
    const data: PopupReady = { type: POPUP_READY_TYPE, session: this.session, ...(height && { height }) };
    if (this.#port) this.#port.postMessage(data);
    else if (this.opened) this.win.parent.postMessage(data, '*');
  }

  /** The shopper closed the popup (Escape, Cancel): on the port; before it, on the window to the ancestor's origin only (it carries nothing). */
  close(): void {
    const data: PopupClose = { type: POPUP_CLOSE_TYPE, session: this.session };
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (this.#port) this.#port.postMessage(data);
    else if (ancestor) this.win.parent.postMessage(data, ancestor);
    else this.#queue.push(data);
  }
}
