import type { ColorScheme, DialogTexts, FrameConfig } from '../../protocol/schemas/bridge.ts';
import type { FrameLook, Theme } from '../../protocol/runtime/frame-address.ts';
import { resolveLook } from './color-scheme.ts';
import type { Frame } from './frame.ts';

/** The nineteen theme tokens of the spec, read from the element's computed style. */
export const TOKENS = 'bg bg-alt fg fg-muted border border-subtle focus error success accent input-bg input-fg input-border input-placeholder font radius gap padding control-height'
  .split(' ')
  .map((name) => `--cpe-${name}`);

export const noop = () => {};

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
  settled?: boolean;
}
function deferred(): Deferred {
  const d = {} as Deferred;
  d.promise = new Promise<void>((resolve, reject) => {
    d.resolve = () => ((d.settled = true), resolve());
    d.reject = (error) => ((d.settled = true), reject(error));
  });
  d.promise.catch(noop);
  return d;
}

/** Calls `onTimeout` once the handshake's time is up; returns what cancels it. */
export type HandshakeTimer = (onTimeout: () => void) => () => void;

/**
 * An element's mounted frames: the handshake's outcome (`ready` once every frame said hello and got
 * its port with the session, or the timeout), and the look they get (theme tokens and colour scheme, sent
 * again with `configure` whenever the page around the element changes it). The element's parts
 * create the frames (the element is their FrameOwner); this keeps them, and ends them on `unmount`.
 */
export class FrameMount {
  /** Current frames, the first being the one that tokenises and takes focus. */
  frames: Frame[] = [];
  /** What the dialogs say, in the frames' language (their `ready` tells). */
  texts?: DialogTexts;
  #ready?: Deferred;
  #readySent = false;
  /** The session has not arrived yet: ready waits for it. */
  #sessionPending = false;
  #cancelTimer?: () => void;
  /** The tokens and colour scheme last sent to the frames (JSON), to send them again only when they change. */
  #look = '';
  #abort?: AbortController;

  readonly #host: HTMLElement;
  /** The config the frames get at the handshake and with `configure` (it reads `look()`). */
  readonly #config: () => FrameConfig;
  /** Every frame is ready. */
  readonly #onReady: () => void;

  constructor(host: HTMLElement, config: () => FrameConfig, onReady: () => void) {
    this.#host = host;
    this.#config = config;
    this.#onReady = onReady;
  }

  /** Aborted when this mount ends (its dialogs close). */
  get signal(): AbortSignal | undefined {
    return this.#abort?.signal;
  }

  /** Whether someone waits for ready (or a mount started). */
  get awaited(): boolean {
    return !!this.#ready;
  }

  /** Resolves when the handshake completed; rejects with the mount's failure. */
  whenReady(): Promise<void> {
    return (this.#ready ??= deferred()).promise;
  }

  /** A mount begins: a fresh ready unless one is still pending. */
  begin(): void {
    if (!this.#ready || this.#ready.settled) this.#ready = deferred();
  }

  /** The mount failed (or the element is unavailable): ready rejects. */
  fail(error: Error): void {
    this.#ready?.reject(error);
  }

  /** The frames are in the page and handshaking: `onTimeout` when `limit` says so, unless all are ready first. */
  start(frames: Frame[], limit: HandshakeTimer, onTimeout: () => void): void {
    const abort = (this.#abort = new AbortController());
    this.#readySent = false;
    this.#sessionPending = true;
    this.frames = frames;
    this.#cancelTimer = limit(onTimeout);
    this.#watchTheme(abort.signal);
  }

  /** The session is there (or there is none yet, with Checkout Context). */
  sessionArrived(): void {
    this.#sessionPending = false;
    this.#maybeReady();
  }

  /** Every frame that has its port gets the config again (the session arrived: Checkout Context's exchange). */
  configure(): Promise<unknown> {
    return Promise.all(this.frames.map((frame) => frame.end && frame.request('configure', this.#config())));
  }

  /**
   * A frame said hello: it shows its form at its height from now on (the reserved height was for the
   * skeleton), and gets its port and config at once, or when the session arrives.
   */
  frameHello(frame: Frame, texts?: DialogTexts): void {
    if (texts) this.texts = texts;
    (frame.box instanceof HTMLElement ? frame.box : this.#host).style.minHeight = '';
    if (!this.#sessionPending) frame.connect();
    this.#maybeReady();
  }

  /** Ready: every frame has its port and its config, the session in it (when there is one yet). */
  #maybeReady(): void {
    if (this.#sessionPending) return;
    for (const frame of this.frames) frame.connect();
    if (this.#readySent || !this.frames.every((f) => f.ready)) return;
    this.#readySent = true;
    this.#cancelTimer?.();
    this.#ready?.resolve();
    this.#onReady();
  }

  /** The `--cpe-*` tokens and colour scheme for the frames, recorded as the look they have. */
  look(theme?: Theme): FrameLook & { scheme: ColorScheme } {
    const style = getComputedStyle(this.#host);
    const tokens: Record<string, string> = {};
    for (const name of TOKENS) {
      const value = style.getPropertyValue(name).trim();
      if (value) tokens[name] = value;
    }
    // The frames paint the page's own background (unless --cpe-bg says otherwise) in its colour scheme,
    // and their iframes take that scheme too, so the browser keeps them transparent.
    const { scheme, background } = resolveLook(this.#host, theme);
    if (background) tokens['--cpe-bg'] ??= background;
    for (const frame of this.frames) frame.iframe.style.colorScheme = scheme;
    this.#look = JSON.stringify([tokens, scheme]);
    return { tokens, scheme };
  }

  /**
   * Follows `--cpe-*` and colour scheme changes: the style, class and theme attributes of the element
   * and its ancestors (a page switching its own theme), and the operating system's preference.
   */
  #watchTheme(signal: AbortSignal): void {
    const check = () => {
      if (!this.frames.length) return;
      const before = this.#look;
      const config = this.#config();
      if (this.#look !== before) for (const frame of this.frames) if (frame.end) frame.request('configure', config).catch(noop);
    };
    const observer = new MutationObserver(check);
    for (let node: Element | null = this.#host; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null))
      observer.observe(node, { attributes: true, attributeFilter: ['style', 'class', 'theme', 'data-theme'] });
    signal.addEventListener('abort', () => observer.disconnect());
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', check, { signal });
  }

  /** The frames go: the element left the page, or mounts again with new options. */
  unmount(): void {
    this.#abort?.abort();
    if (this.#ready?.settled) this.#ready = undefined;
    this.#cancelTimer?.();
    for (const frame of this.frames) frame.destroy();
    this.frames = [];
  }
}
