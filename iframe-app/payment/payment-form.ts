import { css, html, nothing, svg, type PropertyValues } from 'lit';
import { unsafeSVG } from 'lit/directives/unsafe-svg.js';
import { methodsIn, type PaymentMethod } from '../../protocol/runtime/frame-address.ts';
import { WALLET_BUTTONS } from '../../protocol/wallets/buttons.ts';
import { WALLETS, walletOfMethod, type WalletMethod } from '../../protocol/wallets/index.ts';
import { FlowForm } from '../flow/flow-form.ts';
import { fill } from '../../i18n/format.ts';
import { emitFrameEvent } from '../shared/frame-app.ts';

/** Below this width the methods are an accordion (a row each, the chosen one open under it), as Stripe's Payment Element. */
const ACCORDION_BELOW = 400;
/** A wallet method's name (its descriptor's, protocol/wallets/). */
const walletName = (method: WalletMethod) => WALLETS[walletOfMethod(method)].name;

const CARD_ICON = svg`<rect x="1.5" y="4" width="21" height="16" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M1.5 9h21" stroke="currentColor" stroke-width="2.4"/>`;
/** A method's tab icon: the card's, or the wallet's (its descriptor's: our own markup, not the page's). */
const icon = (method: PaymentMethod) => (method === 'card' ? CARD_ICON : unsafeSVG(WALLET_BUTTONS[walletOfMethod(method)].icon));

/**
 * `<cpe-payment-form>`: the payment element's frame. Every method the element found available (its
 * address's `methods`) as tabs, or below 400 px an accordion; the card's tab is the card form of
 * the Flows (same fields, layouts, messages and tokenise), a wallet's tab says the wallet will ask.
 * One action button (unless the address says `button=none`: the merchant's own calls `pay()`): "Pay
 * £12.34" for the card, "Pay with Wallet A" for a wallet. Choosing a tab emits `select`; the button
 * emits `submit` (the card validated first); the element drives the outcome with `flowState`, as for
 * a Flow. Tabs follow the ARIA tabs pattern: arrow keys (mirrored right to left), Home and End, the
 * selection following the focus.
 */
export class PaymentForm extends FlowForm {
  static override styles = css`
      ${FlowForm.styles}
      .tabs {
        display: flex;
        gap: var(--_gap);
        margin: 0 0 var(--_gap);
      }
      .tab,
      .row {
        display: flex;
        flex: 1 1 0;
        min-width: 0;
        gap: 6px;
        align-items: center;
        min-height: 44px;
        padding: 6px 10px;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_input-bg);
        color: var(--_fg);
        font: inherit;
        font-weight: 600;
        text-align: start;
        cursor: pointer;
      }
      .tab {
        flex-direction: column;
        align-items: flex-start;
        justify-content: center;
      }
      .tab[aria-selected='true'],
      .row[aria-expanded='true'] {
        border-color: var(--_accent);
        box-shadow: inset 0 0 0 1px var(--_accent);
        color: var(--_accent);
      }
      .tab:focus-visible,
      .row:focus-visible {
        outline: 2px solid var(--_focus);
        outline-offset: -4px;
      }
      .tab svg,
      .row svg {
        flex: none;
        width: 22px;
        height: 22px;
      }
      .tab span,
      .row span {
        overflow-wrap: anywhere;
      }
      .accordion {
        display: grid;
        gap: var(--_gap);
        margin: 0 0 var(--_gap);
      }
      .row {
        width: 100%;
        flex-direction: row;
      }
      .wallet-note {
        margin: 0;
        padding: var(--_pad) 0;
        color: var(--_fg);
        line-height: 22px;
      }
      [hidden] {
        display: none !important;
      }
    `;
  static override properties = { ...FlowForm.properties, methods: { state: true }, selected: { state: true }, narrow: { state: true }, ownButton: { state: true } };

  /** The methods to offer, as the element found them available (`offer`). */
  methods: PaymentMethod[] = ['card'];
  selected: PaymentMethod = 'card';
  narrow = false;
  /** Whether the frame shows its own Pay button (false: the merchant's calls `pay()`). */
  ownButton = true;
  /** Tabs, or below 400 px the accordion (a frame not laid out yet, with no width, waits for its resize). */
  #fit(): void {
    const width = this.getBoundingClientRect().width;
    if (width) this.narrow = width < ACCORDION_BELOW;
  }

  /** Before the first render too: drawn as tabs first, it said the tabs' height in its hello, then became an accordion. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!this.hasUpdated) this.#fit();
  }

  /** After each render and on every resize (the card inputs' observer). */
  override arrange(): void {
    this.#fit();
    super.arrange();
  }

  /** What its address says (the element's `methods` found available, in its order; `button=none`), before the first render. */
  offer(methods = 'card', button?: string): void {
    const known = methodsIn(methods.split(','));
    this.methods = known.length ? known : ['card'];
    this.selected = this.methods[0]!;
    this.ownButton = button !== 'none';
  }

  #name(method: PaymentMethod): string {
    return method === 'card' ? this.catalogue.methodCard : walletName(method);
  }

  override get label(): string {
    return this.selected === 'card' ? super.label : fill(this.catalogue.walletTypes.pay, { wallet: walletName(this.selected) });
  }

  #select(method: PaymentMethod): void {
    if (method === this.selected) return;
    this.selected = method;
    emitFrameEvent(this, { name: 'select', detail: { method } });
  }

  /** The card validates first; a wallet goes straight to its sheet (the element opens it). */
  override press(): void {
    if (this.selected === 'card') return super.press();
    if (this.flowState.state !== 'idle') return;
    this.flowState = { state: 'processing' };
    emitFrameEvent(this, { name: 'submit', detail: {} });
  }

  /** Arrow keys move between tabs (mirrored right to left), Home and End to the ends; the selection follows. */
  #onTabKey = (event: KeyboardEvent) => {
    const rtl = this.catalogue.dir === 'rtl';
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 }[event.key];
    const at = this.methods.indexOf(this.selected);
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? this.methods.length - 1 : step === undefined ? -1 : (at + step + this.methods.length) % this.methods.length;
    if (next < 0) return;
    event.preventDefault();
    this.#select(this.methods[next]!);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${this.selected}`)?.focus());
  };

  #panel(method: PaymentMethod) {
    return method === 'card' ? this.renderForm() : html`<p class="wallet-note" ?hidden=${this.done}>${fill(this.catalogue.walletPanel, { wallet: walletName(method) })}</p>`;
  }

  override render() {
    const single = this.methods.length === 1;
    const hide = this.done;
    let chooser: unknown = nothing;
    if (!single && this.narrow) {
      chooser = html`<div class="accordion" ?hidden=${hide}>
        ${this.methods.map(
          (m) => html`<button class="row" type="button" id="tab-${m}" aria-expanded=${m === this.selected ? 'true' : 'false'} aria-controls="panel-${m}" @click=${() => this.#select(m)}>
              <svg viewBox="0 0 24 24" aria-hidden="true">${icon(m)}</svg><span>${this.#name(m)}</span>
            </button>
            ${m === this.selected ? html`<div id="panel-${m}" role="region" aria-labelledby="tab-${m}">${this.#panel(m)}</div>` : nothing}`,
        )}
      </div>`;
    } else if (!single) {
      chooser = html`<div class="tabs" role="tablist" aria-label=${this.catalogue.paymentMethods} ?hidden=${hide} @keydown=${this.#onTabKey}>
          ${this.methods.map(
            (m) => html`<button class="tab" type="button" role="tab" id="tab-${m}" aria-selected=${m === this.selected ? 'true' : 'false'} aria-controls="panel" tabindex=${m === this.selected ? '0' : '-1'} @click=${() => this.#select(m)}>
              <svg viewBox="0 0 24 24" aria-hidden="true">${icon(m)}</svg><span>${this.#name(m)}</span>
            </button>`,
          )}
        </div>
        <div id="panel" role="tabpanel" aria-labelledby="tab-${this.selected}">${this.#panel(this.selected)}</div>`;
    }
    return html`${single ? this.#panel(this.selected) : chooser}${this.renderEnd(this.ownButton)}`;
  }
}
if (!customElements.get('cpe-payment-form')) customElements.define('cpe-payment-form', PaymentForm);
