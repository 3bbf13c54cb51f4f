import type { CardField, ColorScheme, DialogTexts, FrameConfig, FrameEventDetail, FrameEventName, TokeniseResult } from '../../protocol/schemas/bridge.ts';
import type { FrameLook } from '../../protocol/runtime/frame-address.ts';
import type { AttachResponse, ChallengePayload, ConfirmResponse } from '../../protocol/schemas/intent.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import type { ElementsController } from '../controller.ts';
import { adoptEarlyProperties, camel, HTMLElementOrStub, kebab } from '../define.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent, type CpeEvent, type CpeEventName } from '../events.ts';
import { scrub } from '../transport/transport.ts';
import type { PaymentAttempt } from './payment-attempt.ts';
import type { StepRunner } from './payment-steps.ts';
import { pay, type PayResult } from './pay.ts';
import { notice } from './notice.ts';
import { loadPayment, prefetch } from './load-chunks.ts';
import type { DialogLook } from './popup-channel.ts';
import { resolveLook } from './color-scheme.ts';
import { FrameMount, noop } from './frame-mount.ts';
import { sheet } from './styles.ts';
import type { Frame, FrameOwner } from './frame.ts';
import {
  parse,
  type AttachOptions,
  type AuthOptions,
  type AuthoriseResult,
  type ChallengeOutcome,
  type ConfirmOptions,
  type ConfirmResult,
  type OptionsGuard,
  type PayOptions,
  type SharedElementOptions,
} from './options.ts';

export type { AttachResponse, ChallengePayload, ConfirmResponse, TokeniseResult };

/** Spec "ElementsApi": what every CPE element implements. */
export interface ElementsApi {
  init(): Promise<void>;
  awaitReady(): Promise<void>;
  tokenise(): Promise<TokeniseResult>;
  attach(options?: AttachOptions): Promise<AttachResponse>;
  confirm(options?: ConfirmOptions): Promise<ConfirmResult>;
  handle3DSAuthentication(challenge: ChallengePayload): Promise<ChallengeOutcome>;
  authoriseViaBackend(options: AuthOptions): Promise<AuthoriseResult>;
  reset(): Promise<void>;
  pay(options?: PayOptions): Promise<PayResult>;
  on<K extends CpeEventName>(type: K, listener: (event: CpeEvent<K>) => void): this;
  onChange(listener: (event: CpeEvent<'cpe:change'>) => void): this;
  onReady(listener: (event: CpeEvent<'cpe:ready'>) => void): this;
  onProcessingStart(listener: (event: CpeEvent<'cpe:processing:start'>) => void): this;
  onProcessingEnd(listener: (event: CpeEvent<'cpe:processing:end'>) => void): this;
  onError(listener: (event: CpeEvent<'cpe:error'>) => void): this;
}

/**
 * A part of an element (Lit's ReactiveController shape, without Lit), added with `addController`
 * and told about the element's lifecycle, in the order the parts were added. `O`: the element's options.
 */
export interface HostController<O = any> {
  /** The attributes' options (camelCased), before validation: the part may reshape them. */
  hostAttributes?(options: Record<string, unknown>): Record<string, unknown>;
  /** An option property is set (`el.identifier = …`): throw the factory's SdkError to refuse it. */
  hostOption?(name: string, value: unknown): void;
  /**
   * `init()`, the options validated, before any frame: place the element (`factory`: into its
   * `element` container), check; a throw fails init, `false` (or a promise of it) renders nothing.
   */
  hostInit?(controller: ElementsController, options: O, factory: boolean): unknown;
  /** The frames of a new mount, in the page (the first of all tokenises and takes focus). */
  hostFrames?(controller: ElementsController, options: O): Frame[];
  /** What the frames' config carries in `extra`, given what the parts before said. */
  hostExtra?(extra: Record<string, unknown> | undefined, options: O): Record<string, unknown>;
  /** A validated event from one of the element's frames. */
  hostFrameEvent?<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void;
}

/** The payment code's chunk (payment-steps.ts). */
export type PaymentCode = typeof import('./payment-steps.ts');

export const px = (value: number | string) => (typeof value === 'number' ? `${value}px` : value);

/**
 * The base of every merchant-side element: a thin host for hosted frames (no card data here),
 * implementing ElementsApi once. It keeps the options (attributes, properties, the factory's), the
 * lifecycle and the operations' events; everything else is a part it holds, in the shape of Lit's
 * reactive controllers (HostController): its own frame mount (frame-mount.ts: handshake, ready,
 * timeout, theme), payment attempt (payment-attempt.ts: key, token, attach → confirm → authorise;
 * no DOM) and 3-D Secure challenge (challenge.ts), the last two with the steps that run them in
 * chunks fetched on demand (payment-steps.ts, dialogs.ts: load-chunks.ts), and what each element adds with
 * `addController`: where its frames go and what they say (hosted-frame.ts, the card fields'),
 * a wallet (wallet.ts), the Flow lifecycle (flow-lifecycle.ts). An element is its declaration.
 *
 * Lifecycle: a factory's element waits for `init()`; an element written in HTML initialises itself
 * once connected with a controller (its `controller` property or the enclosing `<cpe-elements>`).
 * Disconnecting releases the frames, ports and listeners; reconnecting mounts fresh ones; `init()`
 * twice returns the same promise. Never two frames for one element.
 *
 * Events (bubbling, composed `CustomEvent`s): an operation emits `…:start`, then `cpe:error` if it
 * failed, then `…:end` (always). `confirm` with a challenge: `cpe:confirm:start`,
 * `cpe:challenge:start`, `cpe:challenge:end`, `cpe:confirm:end`, then `cpe:authorise:*` with
 * `autoAuthorise`.
 *
 * @fires {CustomEvent<{}>} cpe:ready - The frames finished their handshake (`awaitReady()` resolves).
 * @fires {CustomEvent<{ message: string, code?: string, operation?: string }>} cpe:error - An operation failed: `operation` names it; never a token.
 * @fires {CustomEvent<{}>} cpe:attach:start - `attach()` started.
 * @fires {CustomEvent<{ status?: string }>} cpe:attach:end - `attach()` ended.
 * @fires {CustomEvent<{}>} cpe:confirm:start - `confirm()` started.
 * @fires {CustomEvent<{ status?: string }>} cpe:confirm:end - `confirm()` ended.
 * @fires {CustomEvent<{}>} cpe:challenge:start - The 3-D Secure challenge opened.
 * @fires {CustomEvent<{ status?: string }>} cpe:challenge:end - The challenge closed: `completed`, `failed` or `cancelled`.
 * @fires {CustomEvent<{}>} cpe:authorise:start - Authorisation started.
 * @fires {CustomEvent<{ authorised?: boolean, status?: string, success?: boolean }>} cpe:authorise:end - Authorisation ended.
 * @fires {CustomEvent<{ status: string, paymentIntentId: string, error?: { type: string, code: string, message: string, field?: string } }>} cpe:payment:end - A whole payment ended (`pay()`, a Flow's button, wallet A, `<cpe-payment>`): `pay()`'s result, never proof of payment.
 * @cssprop --cpe-bg - Background, passed into the frames (and followed when it changes).
 * @cssprop --cpe-bg-alt - Alternate background (skeleton, badges), passed into the frames (and followed when it changes).
 * @cssprop --cpe-fg - Text colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-fg-muted - Secondary text colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-border - Border colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-border-subtle - Subtle border colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-focus - Focus ring colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-error - Error colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-success - Success colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-accent - Accent colour (buttons), passed into the frames (and followed when it changes).
 * @cssprop --cpe-input-bg - Input background, passed into the frames (and followed when it changes).
 * @cssprop --cpe-input-fg - Input text colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-input-border - Input border colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-input-placeholder - Placeholder colour, passed into the frames (and followed when it changes).
 * @cssprop --cpe-font - Font family, passed into the frames (and followed when it changes).
 * @cssprop --cpe-radius - Corner radius, passed into the frames (and followed when it changes).
 * @cssprop --cpe-gap - Gap between fields, passed into the frames (and followed when it changes).
 * @cssprop --cpe-padding - Padding of the form, passed into the frames (and followed when it changes).
 * @cssprop --cpe-control-height - Height of an input, passed into the frames (and followed when it changes).
 * @csspart skeleton - The placeholder shown until a frame is ready.
 * @csspart challenge - The 3-D Secure `<dialog>`.
 * @csspart challenge-cancel - The challenge's Cancel button.
 */
export abstract class FrameHost extends HTMLElementOrStub implements FrameOwner, ElementsApi {
  /** The options written as attributes (kebab-case): `total` and `appearance` take two each (`total-amount`, `total-label`). */
  static observedAttributes: string[];

  /** The options that are properties: one per attribute, camelCased, but one `total` for `total-*` (likewise `appearance`). */
  static get props(): string[] {
    return [...new Set(this.observedAttributes.map((name) => camel(name.replace(/^(total|appearance)-.*/, '$1'))))];
  }

  /** Name used in messages: `cardElement`, `<cpe-card>`. */
  readonly #apiName: string;
  /** The options schema; in HTML the observed attributes (kebab-case) are its options (camelCase). */
  readonly #schema: OptionsGuard;
  /** What an option property reads while its attribute is absent. */
  readonly #defaults: Record<string, unknown>;
  /** The validated options (from the factory, or from attributes). */
  protected options: SharedElementOptions = {};
  /** The frames of the current mount: their handshake, ready, timeout and look. */
  readonly #mount = new FrameMount(
    this,
    () => this.frameConfig(),
    () => dispatchCpeEvent(this, 'cpe:ready', {}),
  );
  /** The parts the element added (addController). */
  readonly #parts: HostController[] = [];
  /** @internal Removed from the page: a Flow's identifier is free again (controller.claim). */
  released = false;
  /** Attach's refusal when there is no token (wallet B: the shopper has not approved yet); else the payment code's (payment-steps.ts). */
  protected noToken?: string;
  /** @internal A wallet's: opens its sheet for `pay()` and resolves the approved token (wallet.ts). */
  walletToken?: () => Promise<string>;

  #controller?: ElementsController;
  #factory = false;
  /** A factory's options that are not attributes: `element`, `resolveOptions`, `fields`. */
  #extras: Record<string, unknown> = {};
  /** The enclosing `<cpe-elements>` while connected. */
  #provider?: Element | null;
  #wanted = false;
  #init?: Promise<void>;
  #gen = 0;
  /** The payment attempt (no DOM): its key, token and steps; this element runs them inside their events. Made with the payment code (paymentCode). */
  #attempt?: PaymentAttempt;
  /** The token of an attempt started before the payment code came (startAttempt). */
  #startWith?: { token?: string };

  /**
   * @param apiName Name used in messages: `cardElement`, `<cpe-card>`.
   * @param schema The options schema; in HTML the observed attributes (kebab-case) are its options (camelCase).
   * @param css The element's shadow root's styles (styles.ts).
   * @param defaults The element's own option defaults, beside `layout`, `language`, `theme`, `cardSchemesDisplay` and (a wallet's) `appearance`.
   */
  constructor(apiName: string, schema: OptionsGuard, css: string, defaults?: Record<string, unknown>) {
    super();
    this.#apiName = apiName;
    this.#schema = schema;
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [sheet(css)];
    this.#defaults = { layout: 'row', language: 'en', theme: 'auto', cardSchemesDisplay: 'detected', appearance: { type: 'plain', style: 'dark' }, ...defaults };
  }

  /** @internal Adds a part (a HostController), told about this element's lifecycle from now on. */
  addController(part: HostController): void {
    this.#parts.push(part);
  }

  /** The Elements controller; set it (or wrap the element in `<cpe-elements>`) and a connected element initialises itself. */
  get controller(): ElementsController | undefined {
    return this.#controller ?? (this.closest('cpe-elements') as { controller?: ElementsController } | null)?.controller;
  }
  set controller(controller: ElementsController | undefined) {
    this.#controller = controller;
    this.#auto();
  }

  /** @internal Used by the controller's factories: the element then waits for `init()`; its options become attributes. */
  setup(controller: ElementsController, options: SharedElementOptions): this {
    this.#factory = true;
    this.#controller = controller;
    const props = (this.constructor as typeof FrameHost).props;
    for (const [name, value] of Object.entries(options)) props.includes(name) ? this.#reflect(name, value) : (this.#extras[name] = value);
    return this;
  }

  /** `cardElement` (a factory's element) or `<cpe-card>` (written in HTML): what messages call it. */
  get #name(): string {
    return this.#factory ? this.#apiName : `<${this.localName}>`;
  }

  /** The options the attributes say (camelCased; `height` and a `width` in pixels as numbers), before validation. */
  #attributeOptions(): Record<string, unknown> {
    let options: Record<string, unknown> = {};
    for (const name of (this.constructor as typeof FrameHost).observedAttributes) {
      const value = this.getAttribute(name);
      if (value !== null) options[camel(name)] = name === 'height' || (name === 'width' && /^\d+(\.\d+)?$/.test(value)) ? Number(value) : value;
    }
    for (const part of this.#parts) options = part.hostAttributes?.(options) ?? options;
    return options;
  }

  /** @internal An option property's value: its attribute's, else its default. */
  readOption(name: string): unknown {
    return this.#attributeOptions()[name] ?? this.#defaults[name];
  }

  /** @internal Sets an option property: an SdkError for a value the factory would refuse, else reflected (and re-rendered). */
  writeOption(name: string, value: unknown): void {
    value ??= undefined;
    parse<unknown>(this.#name, this.#schema, { [name]: value }, name);
    for (const part of this.#parts) part.hostOption?.(name, value);
    this.#reflect(name, value);
  }

  /** Writes an option to its attribute(s): an object option to one per key (`total-amount`); `null` or `undefined` removes them. */
  #reflect(name: string, value: unknown): void {
    const prefix = kebab(name);
    for (const attr of (this.constructor as typeof FrameHost).observedAttributes)
      if (attr === prefix || attr.startsWith(`${prefix}-`)) {
        const v = attr === prefix ? value : (value as Record<string, unknown> | null)?.[camel(attr.slice(prefix.length + 1))];
        if (v == null) this.removeAttribute(attr);
        else this.setAttribute(attr, String(v));
      }
  }

  connectedCallback(): void {
    this.released = false;
    adoptEarlyProperties(this, (this.constructor as typeof FrameHost).props);
    this.#auto();
    // Each controller the enclosing <cpe-elements> makes (its attributes changed) remounts the element.
    (this.#provider = this.closest('cpe-elements'))?.addEventListener('cpe-elements:ready', this.#provided);
  }

  disconnectedCallback(): void {
    this.released = true;
    this.#provider?.removeEventListener('cpe-elements:ready', this.#provided);
    this.#unmount();
  }

  #provided = () => !this.#controller && this.#remount();

  /** An option changed (its attribute, or its property): a mounted element mounts again with it. */
  attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
    if (old !== value && this.#init) this.#remount();
  }

  #remount(): void {
    this.#unmount();
    this.#auto();
  }

  #auto(): void {
    if (this.isConnected && (this.#wanted || !this.#factory) && this.controller) this.init().catch(noop);
  }

  #unmount(): void {
    this.controller?.hosts.delete(this);
    this.#gen++;
    this.#init = undefined;
    this.#mount.unmount();
  }

  /**
   * Checks the mount target and configuration, creates the Payment Intent session (once per
   * controller), mounts the frame with a fresh session uuid and starts the handshake. Resolves once
   * the frame is in the page; `awaitReady()` resolves when the handshake completes.
   */
  init(): Promise<void> {
    this.#wanted = true;
    if (!this.#init) {
      const gen = this.#gen;
      const started = (this.#init = Promise.resolve().then(() => this.#start(gen)));
      started.catch(() => {
        if (this.#init === started) this.#init = undefined;
      });
    }
    return this.#init;
  }

  async #start(gen: number): Promise<void> {
    if (gen !== this.#gen) return;
    notice(this, null, noop);
    this.#mount.begin();
    try {
      const controller = this.controller;
      if (!controller) throw new SdkError('invalid_state', `${this.#apiName}: no controller: set .controller or put it in <cpe-elements>`);
      // The attributes are the options (a factory's were reflected to them, and may have been changed since).
      // The element's own guard (OptionsGuard: one of several): its options have the shared settings.
      this.options = parse<unknown>(this.#name, this.#schema, { ...this.#extras, ...this.#attributeOptions() }) as SharedElementOptions;
      const checks = await Promise.all(this.#parts.map((part) => part.hostInit?.(controller, this.options, this.#factory)));
      // Removed (or mounted again) meanwhile: that mount goes on, not this one.
      if (gen !== this.#gen) return;
      if (checks.includes(false)) return this.#mount.fail(new SdkError('unavailable', `${this.#apiName}: not available here (see its availability)`));
      controller.hosts.add(this);
      const { width } = this.options;
      if (width !== undefined) this.style.width = px(width);
      // The frame's navigation starts first, then createServerIntent (the merchant's code) runs while
      // the frame loads: ready is the later of the two, not their sum.
      this.#mount.start(this.#parts.flatMap((part) => part.hostFrames?.(controller, this.options) ?? []), controller.handshakeTimer, () =>
        this.#fail(
          'init',
          new SdkError(
            'timeout',
            `${this.#apiName}: the frame did not answer in ${controller.handshakeTimeoutMs / 1000} s: is ${controller.serviceOrigin} reachable, allowed by your CSP (frame-src) and this origin registered for your key?`,
          ),
        ),
      );
      const initial = controller.initial();
      initial.catch(noop);
      // The service named a bad key or an unregistered origin (asked once per controller): say so now, not at the timeout.
      const problem = await controller.keyCheck();
      if (problem) throw problem;
      await initial;
      if (gen !== this.#gen) return;
      // The frames that said hello get their port with the session in their config now; later ones at their hello.
      this.#mount.sessionArrived();
    } catch (error) {
      if (gen === this.#gen) this.#unmount();
      throw this.#fail('init', error);
    }
  }

  /** @internal The controller's session arrived (Checkout Context): each ready frame gets it with `configure`. */
  adopt(): Promise<unknown> {
    return this.#mount.configure();
  }

  /** @internal The session, created (Checkout Context: exchanged) at the shopper's commit; named by this element. */
  commit(): Promise<PaymentIntentSession> {
    return this.controller!.session(this.options.identifier ?? this.localName);
  }

  #fail(operation: string, error: unknown): SdkError {
    // A frame's refusal of a field (tokenise) names it as the error's `option`.
    const e = error instanceof SdkError ? error : new SdkError((error as { code?: string })?.code ?? 'error', scrub(String((error as Error)?.message ?? error)), (error as { field?: string })?.field);
    const cause = e.cause ? scrub(String((e.cause as Error).message ?? e.cause)).slice(0, 300) : '';
    dispatchCpeEvent(this, 'cpe:error', cause ? { message: e.message, code: e.code, operation, cause } : { message: e.message, code: e.code, operation });
    if (operation === 'init') {
      this.#mount.fail(e);
      // Instead of an empty box: a short line (and Try again, which mounts the element again).
      notice(this, e, () => this.#remount());
    }
    return e;
  }

  /** Resolves when the handshake completed (not when the shopper completed the form). */
  awaitReady(): Promise<void> {
    if (!this.#mount.awaited && !this.#wanted && this.#factory) return Promise.reject(new SdkError('invalid_state', `${this.#apiName}: call init() before awaitReady()`));
    return this.#mount.whenReady();
  }

  /**
   * @internal The dialogs' look: the colour scheme (the `theme` option, or with `auto` the page
   * around the element) and what they say, in the frames' language (their `ready` tells).
   */
  look(): DialogLook & { scheme: ColorScheme; lang: string } {
    return { scheme: resolveLook(this, this.options.theme).scheme, texts: this.#mount.texts, lang: this.options.language ?? 'en' };
  }

  /** @internal FrameOwner: the config the frames get at the handshake and with `configure`. */
  frameConfig(): FrameConfig {
    const session = this.controller!.current;
    return {
      pubKey: this.controller!.pubKey,
      session: session && { paymentIntentId: session.paymentIntentId, sessionToken: session.sessionToken },
      ...this.#mount.look(this.options.theme),
      cardSchemesDisplay: this.options.cardSchemesDisplay,
      extra: this.#parts.reduce<Record<string, unknown> | undefined>(
        (extra, part) => part.hostExtra?.(extra, this.options) ?? extra,
        this.options.identifier ? { identifier: this.options.identifier } : undefined,
      ),
    };
  }

  /** @internal FrameOwner: the look a frame paints first (the fragment of its address), and the element's width, its frame's. */
  frameLook(): FrameLook {
    return { ...this.#mount.look(this.options.theme), width: this.clientWidth };
  }

  /** @internal FrameOwner: a frame said hello. */
  frameHello(frame: Frame, texts?: DialogTexts): void {
    this.#mount.frameHello(frame, texts);
  }

  /** @internal FrameOwner: validated events from a frame. */
  frameEvent<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void {
    // The shopper started (typed into the form, pressed a wallet button): the payment code comes now, not at Pay.
    if ((name === 'change' && !(detail as FrameEventDetail<'change'>).empty) || name === 'press') prefetch(name === 'press');
    if (name === 'error') {
      const { message, code } = detail as FrameEventDetail<'error'>;
      dispatchCpeEvent(this, 'cpe:error', { message: scrub(message), code, operation: 'frame' });
    }
    for (const part of this.#parts) part.hostFrameEvent?.(frame, name, detail);
  }

  /**
   * Runs one ElementsApi operation: its checks (`guard`, given the messages' prefix: `cardElement.attach`),
   * `…:start`, the work, `cpe:error` on failure, `…:end`.
   */
  async #op<T>(
    operation: string,
    phase: 'processing' | 'attach' | 'confirm' | 'authorise' | undefined,
    guard: (at: string) => void,
    work: () => Promise<T>,
    end?: (result: T) => object,
  ): Promise<T> {
    try {
      guard(`${this.#apiName}.${operation === 'authorise' ? 'authoriseViaBackend' : operation}`);
    } catch (error) {
      throw this.#fail(operation, error);
    }
    if (phase) dispatchCpeEvent(this, `cpe:${phase}:start` as CpeEventName, {} as never);
    let result: T | undefined;
    try {
      return (result = await work());
    } catch (error) {
      throw this.#fail(operation, error);
    } finally {
      if (phase) dispatchCpeEvent(this, `cpe:${phase}:end` as CpeEventName, (result && end ? end(result) : phase === 'authorise' ? { success: false } : {}) as never);
    }
  }

  async #readyFrame(): Promise<Frame> {
    if (!this.#init && this.#factory) throw new SdkError('invalid_state', `${this.#apiName}: call init() first`);
    await this.awaitReady();
    return this.#mount.frames[0]!;
  }

  /** Tokenises inside the frame; starts a new attempt (a new idempotency key). Only the token, scheme, last four and expiry come back. */
  tokenise(): Promise<TokeniseResult> {
    return this.#op('tokenise', 'processing', noop, async () => {
      await this.commit();
      const result = await (await this.#readyFrame()).request('tokenise', {});
      this.startAttempt(result.data.cp_card_token);
      return result;
    });
  }

  /**
   * Attaches the token (default: the last tokenise's) to the intent, directly or through
   * `middleware.attach`. `requires_payment_method` resolves (read `error.retriable`) but emits
   * `cpe:error` and forbids `confirm` for this attempt (spec rule 1).
   */
  attach(options: AttachOptions = {}): Promise<AttachResponse> {
    return this.#step('attach', options);
  }

  /**
   * Confirms the attached attempt, directly or through `middleware.confirm`; a 3-D Secure challenge
   * opens in a modal (unless `autoHandle3DS: false`) and confirm resolves with the status after it:
   * `requires_authorisation` (completed), `failed`, or `requires_customer_authentication` (cancelled).
   */
  confirm(options: ConfirmOptions = {}): Promise<ConfirmResult> {
    return this.#step('confirm', options);
  }

  /** The manual 3-D Secure path (confirm with `autoHandle3DS: false`): `completed`, `failed`, or undefined when cancelled. */
  handle3DSAuthentication(challenge: ChallengePayload): Promise<ChallengeOutcome> {
    return this.#step('handle3DSAuthentication', challenge);
  }

  /**
   * Asks your backend to authorise (spec rule 3: never the service from the browser): POSTs
   * `{payment_intent_id, ...payload}` to `endpoint` with `X-Idempotency-Key` (the attempt's, so a
   * retry is safe). Only after confirm reached `requires_authorisation`. `authorised: false` emits
   * `cpe:error` and resolves.
   */
  authoriseViaBackend(options: AuthOptions): Promise<AuthoriseResult> {
    return this.authorise(options);
  }

  /** @internal `direct`: the Flows' session route `/intent/authorise` (spec transport rule 4), with the session's headers. */
  authorise(options: AuthOptions, direct?: boolean): Promise<AuthoriseResult> {
    return this.#step('authorise', options, direct);
  }

  /** An ElementsApi step of the attempt (payment-steps.ts `STEPS`), its code fetched first: without it (offline) the operation fails at once. */
  async #step<S extends keyof PaymentCode['STEPS']>(operation: S, input: Parameters<PaymentCode['STEPS'][S]>[1], direct?: boolean): Promise<Awaited<ReturnType<PaymentCode['STEPS'][S]>>> {
    let code: PaymentCode;
    try {
      code = await this.paymentCode();
    } catch (error) {
      throw this.#fail(operation, error);
    }
    const runner = { host: this, attempt: this.#attempt!, name: this.#apiName, noToken: this.noToken, op: this.#op.bind(this), signal: () => this.#mount.signal };
    return (code.STEPS[operation] as (r: StepRunner, input: unknown, direct?: boolean) => Promise<never>)(runner, input, direct);
  }

  /**
   * The whole payment in one call: tokenise (a wallet: its sheet first), attach, confirm with 3-D
   * Secure when asked, authorise through `authorise` (your backend's route; default
   * `middleware.authorise`; without either, the service's session route), then `middleware.verifyAuth`.
   * Resolves `{status, paymentIntentId, error?}`: `error` (a card refused, a challenge cancelled, a
   * field to complete) says why in the element's language, and the element has already cleared and
   * focused the field to change (the number of a declined card, a wrong code) and kept the rest.
   * Rejects only for misuse (an SdkError: bad options, not initialised). Never proof of payment:
   * your backend verifies before it fulfils.
   */
  async pay(options: PayOptions = {}): Promise<PayResult> {
    // Without the payment code (offline) the options wait: pay() below says it could not pay.
    const code = await this.paymentCode().catch(noop);
    const o = code ? parse(`${this.#apiName}.pay`, code.PayOptions, options) : {};
    if (!this.#init && this.#factory) throw new SdkError('invalid_state', `${this.#apiName}: call init() before pay()`);
    return pay(this, o, this.walletToken);
  }

  /** @internal The payment code (payment-steps.ts: a chunk, fetched once per page), and this element's attempt made with it. */
  async paymentCode(): Promise<PaymentCode> {
    const code = await loadPayment();
    if (!this.#attempt) {
      this.#attempt = new code.PaymentAttempt(
        () => this.controller!,
        (detail) => dispatchCpeEvent(this, 'cpe:error', detail),
      );
      if (this.#startWith) this.#attempt.start(this.#startWith.token);
      this.#startWith = undefined;
    }
    return code;
  }

  /** @internal A new attempt (a new idempotency key) with the token it attaches (a tokenise's, a wallet's approval): now, or once the payment code came. */
  startAttempt(token?: string): void {
    if (this.#attempt) this.#attempt.start(token);
    else this.#startWith = { token };
  }

  /** @internal After a payment that did not go through: `field` focused (cleared when `clear`, `message` under it); the other fields kept. */
  fix(field: CardField, clear: boolean, message?: string): Promise<unknown> {
    return Promise.all(
      this.#mount.frames.map((frame) => frame.request('fix', { field, clear, ...(message && { message }) }).then(({ focused }) => focused && frame.iframe.focus(), noop)),
    );
  }

  /** Clears every field and its validation and ends the attempt (`pay()` keeps what needs no change). */
  reset(): Promise<void> {
    return this.#op('reset', undefined, noop, async () => {
      await this.#readyFrame();
      await Promise.all(this.#mount.frames.map((frame) => frame.request('reset', {})));
      this.startAttempt();
    });
  }

  /** Focuses the first field inside the frame (native Tab order continues from there; no focus trap). */
  override focus(): void {
    const frame = this.#mount.frames[0];
    if (!frame) return;
    frame.iframe.focus();
    frame.request('focus', { position: 'first' }).catch(noop);
  }

  on<K extends CpeEventName>(type: K, listener: (event: CpeEvent<K>) => void): this {
    this.addEventListener(type, listener as EventListener);
    return this;
  }
  onChange(listener: (event: CpeEvent<'cpe:change'>) => void): this {
    return this.on('cpe:change', listener);
  }
  onReady(listener: (event: CpeEvent<'cpe:ready'>) => void): this {
    return this.on('cpe:ready', listener);
  }
  onProcessingStart(listener: (event: CpeEvent<'cpe:processing:start'>) => void): this {
    return this.on('cpe:processing:start', listener);
  }
  onProcessingEnd(listener: (event: CpeEvent<'cpe:processing:end'>) => void): this {
    return this.on('cpe:processing:end', listener);
  }
  onError(listener: (event: CpeEvent<'cpe:error'>) => void): this {
    return this.on('cpe:error', listener);
  }
}
