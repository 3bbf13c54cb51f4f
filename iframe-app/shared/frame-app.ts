import type { ColorScheme, FrameConfig, FrameEventDetail, FrameEventName } from '../../protocol/schemas/bridge.ts';
import type { Layout, Theme } from '../../protocol/schemas/frame-url.ts';
import type { Handlers } from '../../protocol/runtime/rpc.ts';
import type { Catalogue } from './i18n.ts';

/** What the host sets on an app's element and waits for: its look, its texts, its first render. */
export type FrameAppElement = HTMLElement & {
  layout: Layout;
  theme: Theme;
  colorScheme?: ColorScheme;
  catalogue: Catalogue;
  readonly updateComplete: Promise<boolean>;
  /** Puts back what was typed into the service's form before the code ran (host.ts). */
  adopt?(typed: Typed): void;
  /** The service's form (`defer-hydration`) becomes the element's own. */
  takeOver?(): void;
};

/** What the shopper typed into the service's form before the code ran: each input's text, the focus and caret. */
export type Typed = { values: [string, string][]; focused?: string; caret?: number | null };

/**
 * A bridge frame's app, as `startFrame` (host.ts) runs it: the host does the address, the handshake,
 * the merchant pin (`config.pubKey` is the address's `pk`), the theme, the catalogue, `ready` and
 * `resize`; the app only what is its own. The card frames are `cardFrameApp` (card-app.ts); the wallet
 * button has no card fields and implements its few members itself.
 *
 * The element may dispatch `frame-event` CustomEvents with `{name, detail}` (`FrameEventRequest`),
 * which the host emits on the port (the Flow's `submit`/`retry`, the wallet's `press`, a session's
 * `error`), and `state` events, emitted as `change`.
 */
export interface FrameApp {
  readonly element: FrameAppElement;
  /** The app's part of `init.config` and each `configure` (after the host's checks and the theme). */
  configure(config: FrameConfig): void;
  /** The bridge methods the app answers besides `configure`; a method not here is `unknown_method`. */
  readonly handlers: Handlers;
  /** The height `hello`/`resize` report; absent, the element's border box. */
  height?(): number;
  /** The document title, once the catalogue is on the element. */
  title(): string;
}

/** The detail of a `frame-event` an app element dispatches for the host to emit. */
export type FrameEventRequest = { [E in FrameEventName]: { name: E; detail: FrameEventDetail<E> } }[FrameEventName];

/** Dispatches a `frame-event` for the host to emit on the port. */
export function emitFrameEvent(element: HTMLElement, event: FrameEventRequest): void {
  element.dispatchEvent(new CustomEvent<FrameEventRequest>('frame-event', { detail: event }));
}
