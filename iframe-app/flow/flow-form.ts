import { css, html, nothing, svg } from 'lit';
import type { FlowState } from '../../protocol/schemas/bridge.ts';
import { PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import { CardInputs } from '../shared/card-inputs.ts';
import { fill, formatMinor } from '../../i18n/format.ts';
import { emitFrameEvent, type FrameEventRequest } from '../shared/frame-app.ts';
import { REASONS } from '../shared/i18n.ts';
import { styles } from '../shared/styles.ts';


const icon = (d: string) => html`<svg viewBox="0 0 20 20" aria-hidden="true">${svg`<circle cx="10" cy="10" r="9" fill="currentColor"/><path d=${d} fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`}</svg>`;
const STATUS_ICONS: Record<string, unknown> = { success: icon('M6 10.5l2.7 2.7L14 7.5'), failure: icon('M10 5.5v5.5M10 14.2v.1') };

/**
 * `<cpe-flow-form flow="pay|verify">`: a Flow's frame. The card form (same fields, layouts, messages
 * and tokenise as cpe-card-form) with the action button — "Pay £12.34" (the session's amount from
 * GET /intent, or `config.extra.amount`/`currency` in minor units before an intent exists) or
 * "Verify Card" — and a status region. Pressing the button (or Enter in a field) validates in the
 * frame; only when every field is valid does it emit `submit`, going to `processing` at once so a
 * second press emits nothing. The element drives the rest with `flowState`: processing, success
 * {message}, failure {message} (+ Try again, which emits `retry` and shows the form again), idle.
 */
export class FlowForm extends CardInputs {
  static override styles = css`
    ${styles}
    /* The action button and the retry button take the form's whole width, flush with its inputs. */
    .action,
    .retry {
      display: block;
      width: 100%;
      min-height: var(--_h);
      margin: var(--_gap) 0 0;
      padding: 8px var(--_pad);
      border: 0;
      border-radius: var(--_radius);
      background: var(--_accent);
      color: var(--_bg);
      font: inherit;
      font-weight: 600;
      line-height: 22px;
      cursor: pointer;
    }
    /* The ring sits inside the button (nothing is drawn past the frame's edges). */
    .action:focus-visible,
    .retry:focus-visible {
      outline: 2px solid var(--_bg);
      outline-offset: -4px;
      box-shadow: inset 0 0 0 4px var(--_focus);
    }
    .action[disabled] {
      cursor: progress;
      opacity: 0.8;
    }
    [hidden] {
      display: none !important;
    }
    .status.success,
    .status.failure {
      display: flex;
      gap: 10px;
      align-items: flex-start;
      padding: var(--_pad);
      border: 1px solid var(--_success);
      border-radius: var(--_radius);
      background: var(--_input-bg);
      color: var(--_fg);
      line-height: 22px;
    }
    .status.failure {
      border-color: var(--_error);
    }
    .status svg {
      flex: none;
      width: 20px;
      height: 20px;
      margin-top: 1px;
    }
    .status.success svg {
      color: var(--_success);
    }
    .status.failure svg {
      color: var(--_error);
    }
    .status.success {
      font-weight: 600;
    }
    /* Back at the form after a cancelled challenge: what happened, under the button. */
    .status.idle:not(:empty) {
      margin-top: var(--_gap);
      color: var(--_fg);
      line-height: 22px;
    }
  `;
  static override properties = { ...CardInputs.properties, flowState: { state: true }, amountLabel: { state: true } };

  flowState: FlowState = { state: 'idle' };
  /** The formatted amount, once known. */
  amountLabel?: string;
  #intentFor?: string;

  constructor(
    readonly flow: 'pay' | 'verify',
    /** The frame's language tag, for number formatting (`fr-CA` formats as in Canada). */
    readonly lang = 'en',
  ) {
    super();
  }

  get label(): string {
    if (this.flow === 'verify') return this.catalogue.verifyCard;
    if (!this.amountLabel) return this.catalogue.payPlain;
    // In right-to-left text the amount keeps its own order (else "12.34 UK£" shows as "£UK 12.34").
    return fill(this.catalogue.pay, { amount: this.catalogue.dir === 'rtl' ? `\u2066${this.amountLabel}\u2069` : this.amountLabel });
  }

  override applyExtra(extra: Record<string, unknown>): void {
    if (this.flow !== 'pay') return;
    if (this.session) {
      void this.#loadIntent();
    } else if (typeof extra.amount === 'number' && Number.isInteger(extra.amount) && typeof extra.currency === 'string' && /^[A-Za-z]{3}$/.test(extra.currency)) {
      this.amountLabel = formatMinor(extra.amount, extra.currency.toUpperCase(), this.lang);
    }
  }

  /** The session's amount and currency (GET /intent on the frame's own origin), once per session. */
  async #loadIntent(): Promise<void> {
    const session = this.session;
    if (!session || this.#intentFor === session.sessionToken) return;
    this.#intentFor = session.sessionToken;
    try {
      const response = await fetch('/intent', {
        headers: { [PUBLIC_KEY_HEADER]: this.pubKey, [SESSION_TOKEN_HEADER]: session.sessionToken },
        credentials: 'omit',
        cache: 'no-store',
      });
      const body = (await response.json()) as { amount?: unknown; currency?: unknown };
      if (!response.ok || typeof body.amount !== 'number' || typeof body.currency !== 'string') throw new Error('unexpected answer');
      if (this.session === session) this.amountLabel = formatMinor(body.amount, body.currency, this.lang);
    } catch {
      this.#intentFor = undefined;
    }
  }

  #emit(event: FrameEventRequest): void {
    emitFrameEvent(this, event);
  }

  /** The action button: validate here; submit only when valid, and only once until the element answers. */
  press(): void {
    if (this.flowState.state !== 'idle') return;
    const bad = this.validateAll();
    this.emitState();
    if (bad) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`#cpe-${bad}`)?.focus());
      return;
    }
    this.flowState = { state: 'processing' };
    this.#emit({ name: 'submit', detail: {} });
  }

  /** Try again pressed, until the element's `idle` comes back. */
  #retrying = false;

  /**
   * Try again: the element answers `idle`, then clears the field to fix and focuses it (or focuses
   * the form); only then is the form shown (shown at once, what a shopper typed before the element's
   * answer arrived could be wiped). A second press meanwhile is ignored.
   */
  retry(): void {
    if (this.flowState.state !== 'failure' || this.#retrying) return;
    this.#retrying = true;
    this.#emit({ name: 'retry', detail: {} });
  }

  /** The element's `flowState` request. */
  setFlowState(next: FlowState): void {
    this.flowState = next;
    // The element's fix (or focus) follows its idle on the same port: it puts the focus.
    if (this.#retrying && next.state !== 'failure') this.#retrying = false;
    // The shopper is in this frame (they pressed the button): Try again takes the focus.
    if (next.state === 'failure' && document.hasFocus())
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.retry')?.focus());
  }

  /**
   * What the status says: the state in the frame's language; a failure's reason (or, back at the
   * form, what happened: a cancelled challenge) by its code, else the element's message.
   */
  #message(): string {
    const { state, message, code } = this.flowState;
    const catalogue = this.catalogue;
    if (state === 'processing') return catalogue.processing;
    if (state === 'success') return message || (this.flow === 'pay' ? catalogue.paid : catalogue.verified);
    const reason = code && Object.hasOwn(REASONS, code) ? catalogue[REASONS[code as keyof typeof REASONS]] : message;
    if (state === 'failure') return reason || (this.flow === 'pay' ? catalogue.declined : catalogue.verifyFailed);
    return reason ?? '';
  }

  #onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') {
      event.preventDefault();
      this.press();
    }
  };

  /** The payment is over (paid, or failed with Try again): the form gives way to the outcome. */
  protected get done(): boolean {
    return this.flowState.state === 'success' || this.flowState.state === 'failure';
  }

  /** The card form (Enter in a field presses the button). */
  protected renderForm() {
    return html`<div class="form" ?hidden=${this.done} @keydown=${this.#onKeydown}>
      ${this.renderBadgeStrip()}
      <div class="grid">${this.fields.map((f) => this.renderField(f))}</div>
    </div>`;
  }

  /** The action button, its label (processing while busy), the status and, after a failure, Try again. */
  protected renderEnd(showAction = true) {
    const { state } = this.flowState;
    const busy = state === 'processing';
    const message = this.#message();
    return html`${showAction
        ? html`<button class="action" type="button" ?hidden=${this.done} ?disabled=${busy} aria-disabled=${busy ? 'true' : 'false'} @click=${() => this.press()}>
            ${busy ? this.catalogue.processing : this.label}
          </button>`
        : nothing}
      <div class="status ${state} ${busy ? 'sr' : ''}" role="status" aria-live="polite">${this.done ? STATUS_ICONS[state] : nothing}${message ? html`<span>${message}</span>` : nothing}</div>
      ${state === 'failure' ? html`<button class="retry" type="button" @click=${() => this.retry()}>${this.catalogue.tryAgain}</button>` : nothing}`;
  }

  override render() {
    return html`${this.renderForm()}${this.renderEnd()}`;
  }
}
if (!customElements.get('cpe-flow-form')) customElements.define('cpe-flow-form', FlowForm);
