import type { ChangeState, FrameEventDetail, FrameEventName, FlowState } from '../../protocol/schemas/bridge.ts';
import { frameUrl } from '../../protocol/runtime/frame-address.ts';
import { CardElementOptions as schema } from '../../protocol/runtime/guards.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import { LAYOUT_MIN_HEIGHT } from '../card/card.component.ts';
import type { ElementsController } from '../controller.ts';
import { Frame } from '../internal/frame.ts';
import { FrameHost } from '../internal/frame-host.ts';
import { resolveTarget, type FlowOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { sheet } from '../internal/styles.ts';
import { scrub } from '../transport/transport.ts';
import styles from './payment-flow.styles.ts';

/**
 * The prebuilt payment flow: the card form and its own button (`Pay £12.34`, formatted in the frame
 * from the session's amount, or from Checkout Context's before an intent exists) in one frame.
 * The button runs the spec's Flow lifecycle (tokenise, attach, confirm with 3-D Secure, authorise
 * through `middleware.authorise` or the session route `/intent/authorise`, then `middleware.verifyAuth`)
 * and the frame shows processing, success or failure (the service's reason) with **Try again**, which
 * clears the card and starts a fresh attempt on the same intent and session. Same events as
 * `<cpe-card>`, in the same order. Each Flow of a controller has its own `identifier`
 * (default `default_payment_flow`): a second Flow with the same one is an SdkError.
 *
 *   <cpe-elements pub-key="pk_…" intent-url="/api/intent"><cpe-payment-flow layout="stack"></cpe-payment-flow></cpe-elements>
 *
 * Every attribute is also a property of the same name in camelCase (`el.layout = 'row'`), which
 * reads its default while unset (`identifier`: `default_payment_flow`) and re-renders the frame when set.
 *
 * @tagname cpe-payment-flow
 * @summary Prebuilt payment flow (ElementsApi).
 * @attr {'stack' | 'row-minimal' | 'row-compact' | 'row' | 'column-compact' | 'column'} [layout=stack] - The form's layout (property `layout`).
 * @attr {string} [language=en] - BCP 47 language of the frame; an unknown one falls back to English (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme: `auto` follows the page and the system (property `theme`).
 * @attr {string} identifier - The Flow's identifier, one per Flow of a controller, default `default_payment_flow` (property `identifier`).
 * @attr {'all' | 'detected' | 'none'} [card-schemes-display=detected] - Scheme badges: every accepted scheme, the one typed, or none (property `cardSchemesDisplay`).
 * @attr {string | number} width - CSS width (a number is pixels), default the container's (property `width`).
 * @attr {number} height - Height in pixels to reserve, never below the layout's minimum (property `height`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The form changed: `{complete, empty, scheme, invalid}`, never digits.
 * @fires {CustomEvent<{}>} cpe:processing:start - `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - `tokenise()` ended.
 */
export class CpePaymentFlow extends FrameHost {
  static observedAttributes = ['layout', 'language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height'];
  protected apiName = 'paymentFlow';
  protected readonly schema = schema;
  protected flow: 'pay' | 'verify' = 'pay';
  declare protected options: FlowOptions;
  /** @internal Removed from the page: its identifier is free again. */
  released = false;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [sheet(styles)];
  }

  override connectedCallback(): void {
    this.released = false;
    super.connectedCallback();
  }

  override disconnectedCallback(): void {
    this.released = true;
    super.disconnectedCallback();
  }

  /** `identifier` reads `default_payment_flow` (`default_verify_flow`) until one is set. */
  protected override get defaults(): Record<string, unknown> {
    return { ...super.defaults, layout: 'stack', identifier: `default_${this.flow === 'pay' ? 'payment' : 'verify'}_flow` };
  }

  /** A second Flow with the same identifier on one controller is the factory's SdkError, also when set as a property. */
  protected override checkOption(name: string, value: unknown): void {
    super.checkOption(name, value);
    if (name === 'identifier') this.controller?.claim(this, this.apiName, (value ?? this.defaults.identifier) as string);
  }

  protected place(): void {
    const { element, resolveOptions } = this.options;
    this.controller!.claim(this, this.apiName, (this.options.identifier ??= this.defaults.identifier as string));
    if (this.factory && !this.isConnected) resolveTarget(this.apiName, 'element', element, resolveOptions, `[data-cpe-flow]`).append(this);
  }

  protected mount(controller: ElementsController, session?: PaymentIntentSession): Frame[] {
    const { layout = 'stack', height = 0, language = 'en', theme = 'auto' } = this.options;
    // The form's minimum and the button's 56 px.
    this.style.minHeight = `${Math.max(height, LAYOUT_MIN_HEIGHT[layout] + 56)}px`;
    const origin = controller.serviceOrigin;
    const src = (uuid: string) => frameUrl(origin, 'flow', { pk: controller.pubKey, ok: session?.opaqueKey, lang: language, layout, theme, flow: this.flow }, uuid);
    return [new Frame(this, origin, src, 'Card payment').place(this.shadowRoot!)];
  }

  /** The identifier, and (Checkout Context, before an intent) the amount the button shows. */
  protected override extra(): Record<string, unknown> {
    const context = !this.session && this.controller?.context;
    return { identifier: this.options.identifier, ...(context && { amount: context.amount, currency: context.currency }) };
  }

  protected frameChange(_frame: Frame, state: ChangeState): void {
    this.emit('cpe:change', state);
  }

  override frameEvent<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void {
    super.frameEvent(frame, name, detail);
    if (name === 'submit') void this.#run(frame);
    if (name === 'retry') this.reset().then(() => this.#state(frame, { state: 'idle' }), () => {});
  }

  #state(frame: Frame, state: FlowState): void {
    frame.request('flowState', state).catch(() => {});
  }

  async #run(frame: Frame): Promise<void> {
    this.#state(frame, { state: 'processing' });
    const [ok, message, code] = await this.lifecycle();
    this.#state(frame, ok ? { state: 'success' } : { state: 'failure', message: message && scrub(message).slice(0, 300), code: code?.slice(0, 60) });
  }
}

/** `<cpe-payment-flow>`'s and `<cpe-verify-flow>`'s option properties. */
export type CpePaymentFlowProperties = OptionProperties<FlowOptions, 'layout' | 'language' | 'theme' | 'cardSchemesDisplay' | 'identifier'>;
export interface CpePaymentFlow extends CpePaymentFlowProperties {}
