import { LitElement, css, html, nothing } from 'lit';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import { WalletResult as WalletResultGuard } from '../../protocol/runtime/dialog-guards.ts';
import { WalletApproval as WalletApprovalGuard } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { PopupIntent } from '../../protocol/schemas/popup.ts';
import type { WalletRequest, WalletResult } from '../../protocol/schemas/wallet.ts';
import { WALLET_MESSAGE_TYPE, WALLET_TEST_CARD_CHOICES, type WalletTestCardChoice } from '../../protocol/runtime/wallet.ts';
import type { ColorScheme } from '../../protocol/schemas/bridge.ts';
import { fill, formatMinor } from '../../i18n/format.ts';
import { en, type Catalogue } from '../shared/i18n.ts';
import { PopupPage } from '../shared/popup-page.ts';
import { WALLETS } from '../../protocol/wallets/index.ts';
import { base } from '../shared/styles.ts';
import { visibilityGate } from '../shared/visibility-gate.ts';

/** What the sheet shows, read from the service (POST /frames/wallet/sheet), never from its address. */
export interface SheetView {
  amount: number;
  currency: string;
  merchant: string;
}

/** The sheet's padding above and below its content (its styles'). */
const SHEET_PADDING = 36;

/** What the test wallet shares when the merchant asks (and only then). */
export const TEST_WALLET_DETAILS = {
  email: 'shopper@example.test',
  billingAddress: { name: 'Ada Lovelace', address1: '12 Analytical Row', postcode: 'N1 9GU', country: 'GB' },
  assuranceDetails: { accountVerified: true, cardHolderAuthenticated: false },
} as const;

/** The last four digits of each test card (protocol/runtime/wallet.ts's choices; the service's test cards). */
const TEST_CARD_LAST4: Record<WalletTestCardChoice, string> = { visa: '4242', challenge: '3220', declined: '0002', insufficient: '9995', attach_fail: '0127' };

type Phase = 'idle' | 'approving' | 'failed' | 'done';

/**
 * `<cpe-wallet-sheet>`: the service's wallet TEST sheet, a page of the service origin that the SDK
 * shows in a modal dialog. It shows what will be charged and to whom, as the service says (the
 * intent's amount and currency, the merchant's registered name: POST /frames/wallet/sheet), what the
 * merchant asked for, a choice of test card, **Approve** and **Cancel** (Escape cancels). It is a
 * popup of the one page-to-popup channel (popup-page.ts): the intent's session arrives once, with
 * the init's port, and the result goes back on that port, never on a window; Cancel is the channel's close. Approve stays inert until the session is
 * checked and the buttons have been fully visible for half a second (visibility-gate.ts): a blind
 * click through a sheet the page hid, or a click the instant it appeared, pays nothing.
 */
export class WalletSheet extends LitElement {
  static override styles = css`
    ${base}
    :host {
      display: block;
      min-height: 100vh;
      padding: 16px 20px 20px; /* SHEET_PADDING */
    }
    h1 {
      margin: 8px 0 0;
      font-size: 1em;
      font-weight: 600;
    }
    .amount {
      margin: 2px 0 0;
      font-size: 1.75em;
      font-weight: 700;
      line-height: 1.2;
    }
    .amount small {
      font-size: 0.5em;
      font-weight: 500;
      color: var(--_fg-muted);
    }
    h2 {
      margin: 16px 0 4px;
      font-size: 0.875em;
      font-weight: 600;
    }
    p,
    ul {
      margin: 0;
    }
    ul {
      padding-inline-start: 20px;
    }
    .note {
      color: var(--_fg-muted);
      font-size: 0.8125em;
    }
    .asks {
      font-size: 0.9375em;
    }
    fieldset {
      margin: 16px 0 0;
      padding: 4px 0;
      border: 1px solid var(--_border-subtle);
      border-radius: var(--_radius);
    }
    legend {
      padding: 0 6px;
      margin-inline-start: 8px;
      font-size: 0.875em;
      font-weight: 600;
    }
    label {
      display: flex;
      gap: 10px;
      align-items: center;
      padding: 6px 12px;
      font-size: 0.9375em;
      cursor: pointer;
    }
    label span {
      color: var(--_fg-muted);
    }
    /* The card's name and last four digits stay on one line; its outcome wraps beside it. */
    label bdi {
      flex: none;
      white-space: nowrap;
    }
    input {
      width: 18px;
      height: 18px;
      margin: 0;
      accent-color: var(--_accent);
    }
    input:focus-visible,
    button:focus-visible {
      outline: 2px solid var(--_focus);
      outline-offset: 2px;
    }
    .status {
      min-height: 1.4em;
      margin: 12px 0 0;
      font-size: 0.9375em;
    }
    .status.failed {
      color: var(--_error);
    }
    /* Always in view, however small the screen: Approve arms only once fully visible (visibility-gate.ts). */
    .actions {
      position: sticky;
      bottom: 0;
      display: flex;
      gap: 12px;
      margin-top: 8px;
      padding: 8px 0 4px;
      background: var(--_bg);
    }
    button {
      flex: 1;
      min-height: var(--_h);
      border-radius: var(--_radius);
      font: inherit;
      font-weight: 600;
      cursor: pointer;
    }
    .approve {
      border: 0;
      background: var(--_accent);
      color: var(--_bg);
    }
    .cancel {
      border: 1px solid var(--_border);
      background: transparent;
      color: var(--_fg);
    }
    button[disabled] {
      cursor: default;
      opacity: 0.8;
    }
  `;
  static override properties = {
    catalogue: { attribute: false },
    theme: { reflect: true },
    colorScheme: { reflect: true, attribute: 'scheme' },
    phase: { state: true },
    card: { state: true },
    session: { state: true },
    view: { state: true },
    armed: { state: true },
  };

  catalogue: Catalogue = en;
  /** Without a `scheme`, the sheet follows `prefers-color-scheme` (shared/styles.ts). */
  theme = 'auto';
  /** The colour scheme of the element that opened the sheet (its address's `theme`); unset, the OS decides. */
  colorScheme?: ColorScheme;
  phase: Phase = 'idle';
  card: WalletTestCardChoice = 'visa';
  session?: PopupIntent;
  /** The amount, currency and merchant name, from the service once the session checked out. */
  view?: SheetView;
  /** Approve has been fully visible for long enough (visibility-gate.ts). */
  armed = false;
  /** The channel to the element that opened the sheet. */
  #popup?: PopupPage;
  #stopGate?: () => void;

  constructor(
    readonly request: WalletRequest,
    readonly pubKey: string,
    readonly lang = 'en',
    private readonly win: Window = window,
  ) {
    super();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.win.addEventListener('keydown', this.#onKeydown);
    this.#popup ??= new PopupPage((intent) => void this.#adopt(intent), undefined, this.win);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.win.removeEventListener('keydown', this.#onKeydown);
    this.#stopGate?.();
  }

  protected override firstUpdated(): void {
    this.#stopGate = visibilityGate(this.renderRoot.querySelector('.actions')!, (armed) => (this.armed = armed));
  }

  /** Tells the parent the sheet listens for its session, then its new heights (its content's: the dialog fits the sheet to it). */
  announceReady(): void {
    this.#popup?.ready(Math.ceil(this.renderRoot.querySelector('main')!.getBoundingClientRect().height + SHEET_PADDING));
  }

  /** The one init: the session's check by the service, which answers what to show. */
  async #adopt(session: PopupIntent | undefined): Promise<void> {
    try {
      if (!session) throw new Error('no session');
      const response = await this.#call('/frames/wallet/sheet', session, {});
      const view = (await response.json()) as { payment_intent_id?: unknown; amount?: unknown; currency?: unknown; merchant_name?: unknown };
      if (!response.ok || view.payment_intent_id !== session.paymentIntentId || typeof view.amount !== 'number' || typeof view.currency !== 'string') throw new Error('refused');
      this.view = { amount: view.amount, currency: view.currency, merchant: typeof view.merchant_name === 'string' ? view.merchant_name : '' };
      this.session = session;
      // What the service said may take another height: the dialog fits the sheet again.
      await this.updateComplete;
      this.announceReady();
    } catch {
      this.phase = 'failed';
    }
  }

  #call(path: string, session: PopupIntent, body: object, key?: string): Promise<Response> {
    return fetch(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [PUBLIC_KEY_HEADER]: this.pubKey,
        [SESSION_TOKEN_HEADER]: session.sessionToken,
        ...(key ? { [IDEMPOTENCY_HEADER]: key } : {}),
      },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  #onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.cancel();
    }
  };

  async approve(): Promise<void> {
    const session = this.session;
    if (this.phase === 'done' || this.phase === 'approving' || !session || !this.armed) return;
    this.phase = 'approving';
    try {
      const response = await this.#call('/frames/wallet/approve', session, { card: this.card, wallet: this.request.wallet, payment_intent_id: session.paymentIntentId }, crypto.randomUUID());
      const approval: unknown = await response.json();
      if (!conforms(WalletApprovalGuard, approval)) throw new Error('unexpected answer');
      if (!response.ok) throw new Error('refused');
      const r = this.request;
      const result: WalletResult = {
        type: WALLET_MESSAGE_TYPE,
        session: this.#popup!.session,
        token: approval.token,
        scheme: approval.scheme,
        last4: approval.last4,
        ...(r.emailAddressRequired ? { email: TEST_WALLET_DETAILS.email } : {}),
        ...(r.billingAddressRequired ? { billingAddress: { ...TEST_WALLET_DETAILS.billingAddress } } : {}),
        ...(r.assuranceDetailsRequired ? { assuranceDetails: { ...TEST_WALLET_DETAILS.assuranceDetails } } : {}),
      };
      // Built here, checked anyway: nothing but the result's own shape may reach the merchant page.
      if (!conforms(WalletResultGuard, result)) throw new Error('The wallet result does not have its shape.');
      this.phase = 'done';
      this.#popup!.send(result);
    } catch {
      this.phase = 'failed';
    }
  }

  cancel(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.#popup?.close();
  }

  #asked() {
    const r = this.request;
    const d = TEST_WALLET_DETAILS;
    const items = [
      r.billingAddressRequired ? html`<li>${this.catalogue.sheetBilling}: ${Object.values(d.billingAddress).join(', ')}</li>` : nothing,
      r.emailAddressRequired ? html`<li>${this.catalogue.sheetEmail}: ${d.email}</li>` : nothing,
      r.assuranceDetailsRequired ? html`<li>${this.catalogue.sheetAssurance}</li>` : nothing,
    ];
    const any = r.billingAddressRequired || r.emailAddressRequired || r.assuranceDetailsRequired;
    return any ? html`<ul class="asks">${items}</ul>` : html`<p class="asks">${this.catalogue.sheetAsksNothing}</p>`;
  }

  override render() {
    const r = this.request;
    const catalogue = this.catalogue;
    const view = this.view;
    const merchant = view?.merchant;
    const busy = this.phase === 'approving';
    const done = this.phase === 'done';
    const status = busy ? catalogue.processing : this.phase === 'failed' ? catalogue.sheetFailed : view ? '' : catalogue.sheetWaiting;
    return html`<main aria-labelledby="title">
      <p class="note">${catalogue.sheetTestNote}</p>
      <h1 id="title">${merchant ? fill(catalogue.sheetPayTo, { merchant }) : fill(catalogue.sheetTitle, { wallet: WALLETS[r.wallet].name })}</h1>
      <p class="amount"><span class="sr">${catalogue.sheetAmount}: </span><bdi dir="ltr">${view ? formatMinor(view.amount, view.currency, this.lang) : '…'}</bdi>${r.label && r.label !== merchant ? html` <small>${r.label}</small>` : nothing}</p>
      <h2 aria-hidden=${merchant ? nothing : 'true'}>${merchant ? catalogue.sheetShares : '\u00a0'}</h2>
      ${this.#asked()}
      ${r.allowCreditCards === false ? html`<p class="note">${catalogue.sheetCreditNo}</p>` : nothing}
      ${r.allowPrepaidCards === false ? html`<p class="note">${catalogue.sheetPrepaidNo}</p>` : nothing}
      <fieldset ?disabled=${busy || done}>
        <legend>${catalogue.sheetCard}</legend>
        ${WALLET_TEST_CARD_CHOICES.map(
          (c) =>
            html`<label><input type="radio" name="card" value=${c} .checked=${this.card === c} @change=${() => (this.card = c)} /><bdi dir="ltr">Visa •••• ${TEST_CARD_LAST4[c]}</bdi><span>${catalogue.sheetCards[c]}</span></label>`,
        )}
      </fieldset>
      <p class="status ${this.phase}" role="status" aria-live="polite">${status}</p>
      <div class="actions">
        <button class="approve" type="button" ?disabled=${busy || done || !view || !this.armed} @click=${() => void this.approve()}>${catalogue.approve}</button>
        <button class="cancel" type="button" ?disabled=${done} @click=${() => this.cancel()}>${catalogue.cancel}</button>
      </div>
    </main>`;
  }
}
if (!customElements.get('cpe-wallet-sheet')) customElements.define('cpe-wallet-sheet', WalletSheet);
