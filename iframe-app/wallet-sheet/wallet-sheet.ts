import { LitElement, css, html, nothing } from 'lit';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/headers.ts';
import { WalletApproval as WalletApprovalGuard, WalletResult as WalletResultGuard, WalletSession as WalletSessionGuard } from '../../protocol/generated/guards.ts';
import { conforms } from '../../protocol/json-guard.ts';
import type { WalletApproval, WalletRequest, WalletResult, WalletSession, WalletSheetReady } from '../../protocol/wallet.ts';
import { WALLET_MESSAGE_TYPE, WALLET_READY_TYPE, WALLET_TEST_CARD_CHOICES, type WalletTestCardChoice } from '../../protocol/wallet-sheet.ts';
import type { ColorScheme } from '../../protocol/bridge.ts';
import { fill, formatMinor } from '../shared/format.ts';
import { en, type Catalogue } from '../shared/i18n.ts';
import { base } from '../shared/styles.ts';

/** The sheet's padding above and below its content (its styles'). */
const SHEET_PADDING = 36;

/** What the test wallet shares when the merchant asks (and only then). */
export const TEST_WALLET_DETAILS = {
  email: 'shopper@example.test',
  billingAddress: { name: 'Ada Lovelace', address1: '12 Analytical Row', postcode: 'N1 9GU', country: 'GB' },
  assuranceDetails: { accountVerified: true, cardHolderAuthenticated: false },
} as const;

/** The last four digits of each test card (protocol/wallet-sheet.ts's choices; the service's test cards). */
const TEST_CARD_LAST4: Record<WalletTestCardChoice, string> = { visa: '4242', challenge: '3220', declined: '0002', insufficient: '9995', attach_fail: '0127' };

type Phase = 'idle' | 'approving' | 'failed' | 'done';

/**
 * `<cpe-wallet-sheet>`: the service's wallet TEST sheet, a plain page of the service origin that the
 * SDK shows in a modal dialog (no bridge handshake). It shows the merchant, the amount, what the
 * merchant asked for, a choice of test card, **Approve** and **Cancel** (Escape cancels). The session
 * arrives by message (protocol/wallet.ts WalletSession); Approve asks POST /frames/wallet/approve
 * for a wallet token and posts a WalletResult to the parent, addressed to the parent's origin when the
 * service lists it among the merchant's origins (else to each listed origin). Cancel posts `cancelled`.
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
    .actions {
      display: flex;
      gap: 12px;
      margin-top: 8px;
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
  static override properties = { cat: { attribute: false }, theme: { reflect: true }, colorScheme: { reflect: true, attribute: 'scheme' }, phase: { state: true }, card: { state: true }, session: { state: true } };

  cat: Catalogue = en;
  /** Without a `scheme`, the sheet follows `prefers-color-scheme` (shared/styles.ts). */
  theme = 'auto';
  /** The colour scheme of the element that opened the sheet (its address's `theme`); unset, the OS decides. */
  colorScheme?: ColorScheme;
  phase: Phase = 'idle';
  card: WalletTestCardChoice = 'visa';
  session?: WalletSession & { origin: string };
  /** Approve was pressed before the session arrived: approve when it does. */
  #pending = false;

  constructor(
    readonly request: WalletRequest,
    readonly pubKey: string,
    /** The sheet's uuid (its address's fragment): every message carries it. */
    readonly uuid: string,
    readonly lang = 'en',
    private readonly win: Window = window,
  ) {
    super();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.win.addEventListener('message', this.#onMessage);
    this.win.addEventListener('keydown', this.#onKeydown);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.win.removeEventListener('message', this.#onMessage);
    this.win.removeEventListener('keydown', this.#onKeydown);
  }

  /** Tells the parent the sheet listens for its session. */
  announceReady(): void {
    // The content's height (the host fills at least the frame): the dialog fits the sheet to it.
    const height = Math.ceil(this.renderRoot.querySelector('main')!.getBoundingClientRect().height + SHEET_PADDING);
    this.win.parent.postMessage({ type: WALLET_READY_TYPE, session: this.uuid, height } satisfies WalletSheetReady, '*');
  }

  #onMessage = (event: MessageEvent) => {
    if (event.source !== this.win.parent) return;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor && event.origin !== ancestor) return;
    const data = event.data as unknown;
    if (!conforms<WalletSession>(WalletSessionGuard, data) || data.session !== this.uuid) return;
    const { type, session, sessionToken, paymentIntentId } = data;
    this.session = { type, session, sessionToken, paymentIntentId, origin: event.origin };
    if (this.#pending) void this.approve();
  };

  #onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.cancel();
    }
  };

  /** Where results go: the session's sender, else the parent's origin as the browser tells it. */
  #parentOrigin(): string | undefined {
    if (this.session) return this.session.origin;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor) return ancestor;
    try {
      return document.referrer ? new URL(document.referrer).origin : undefined;
    } catch {
      return undefined;
    }
  }

  #post(result: WalletResult, targets: string[]): void {
    // Built here, checked anyway: nothing but the result's own shape may reach the merchant page.
    if (!conforms(WalletResultGuard, result)) throw new Error('The wallet result does not have its shape.');
    for (const target of targets) this.win.parent.postMessage(result, target);
  }

  async approve(): Promise<void> {
    if (this.phase === 'done') return;
    // Already approving, unless that approval was waiting for the session which has now arrived.
    if (this.phase === 'approving' && !(this.#pending && this.session)) return;
    const session = this.session;
    if (!session) {
      this.#pending = true;
      this.phase = 'approving';
      return;
    }
    this.#pending = false;
    this.phase = 'approving';
    try {
      const response = await fetch('/frames/wallet/approve', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          [PUBLIC_KEY_HEADER]: this.pubKey,
          [SESSION_TOKEN_HEADER]: session.sessionToken,
          [IDEMPOTENCY_HEADER]: crypto.randomUUID(),
        },
        body: JSON.stringify({ card: this.card, wallet: this.request.wallet, payment_intent_id: session.paymentIntentId }),
        credentials: 'omit',
        cache: 'no-store',
      });
      const approval: unknown = await response.json();
      if (!conforms<WalletApproval>(WalletApprovalGuard, approval)) throw new Error('unexpected answer');
      if (!response.ok) throw new Error('refused');
      const r = this.request;
      const result: WalletResult = {
        type: WALLET_MESSAGE_TYPE,
        session: this.uuid,
        status: 'approved',
        token: approval.token,
        scheme: approval.scheme,
        last4: approval.last4,
        ...(r.emailAddressRequired ? { email: TEST_WALLET_DETAILS.email } : {}),
        ...(r.billingAddressRequired ? { billingAddress: { ...TEST_WALLET_DETAILS.billingAddress } } : {}),
        ...(r.assuranceDetailsRequired ? { assuranceDetails: { ...TEST_WALLET_DETAILS.assuranceDetails } } : {}),
      };
      const targets = approval.origins.includes(session.origin) ? [session.origin] : approval.origins;
      this.phase = 'done';
      this.#post(result, targets);
    } catch {
      this.phase = 'failed';
    }
  }

  cancel(): void {
    if (this.phase === 'done') return;
    this.#pending = false;
    this.phase = 'done';
    const target = this.#parentOrigin() ?? '*';
    this.#post({ type: WALLET_MESSAGE_TYPE, session: this.uuid, status: 'cancelled' }, [target]);
  }

  #asked() {
    const r = this.request;
    const d = TEST_WALLET_DETAILS;
    const items = [
      r.billingAddressRequired ? html`<li>${this.cat.sheetBilling}: ${Object.values(d.billingAddress).join(', ')}</li>` : nothing,
      r.emailAddressRequired ? html`<li>${this.cat.sheetEmail}: ${d.email}</li>` : nothing,
      r.assuranceDetailsRequired ? html`<li>${this.cat.sheetAssurance}</li>` : nothing,
    ];
    const any = r.billingAddressRequired || r.emailAddressRequired || r.assuranceDetailsRequired;
    return any ? html`<ul class="asks">${items}</ul>` : html`<p class="asks">${this.cat.sheetAsksNothing}</p>`;
  }

  override render() {
    const r = this.request;
    const cat = this.cat;
    const merchant = r.merchantName;
    const busy = this.phase === 'approving';
    const done = this.phase === 'done';
    const status = busy ? (this.session ? cat.processing : cat.sheetWaiting) : this.phase === 'failed' ? cat.sheetFailed : '';
    return html`<main aria-labelledby="title">
      <p class="note">${cat.sheetTestNote}</p>
      <h1 id="title">${merchant ? fill(cat.sheetPayTo, { merchant }) : fill(cat.sheetTitle, { wallet: r.wallet === 'a' ? 'Wallet A' : 'Wallet B' })}</h1>
      <p class="amount"><span class="sr">${cat.sheetAmount}: </span><bdi dir="ltr">${formatMinor(r.amount, r.currency, this.lang)}</bdi>${r.label ? html` <small>${r.label}</small>` : nothing}</p>
      ${merchant ? html`<h2>${fill(cat.sheetAsks, { merchant })}</h2>` : nothing}
      ${this.#asked()}
      ${r.allowCreditCards === false ? html`<p class="note">${cat.sheetCreditNo}</p>` : nothing}
      ${r.allowPrepaidCards === false ? html`<p class="note">${cat.sheetPrepaidNo}</p>` : nothing}
      <fieldset ?disabled=${busy || done}>
        <legend>${cat.sheetCard}</legend>
        ${WALLET_TEST_CARD_CHOICES.map(
          (c) =>
            html`<label><input type="radio" name="card" value=${c} .checked=${this.card === c} @change=${() => (this.card = c)} /><bdi dir="ltr">Visa •••• ${TEST_CARD_LAST4[c]}</bdi><span>${cat.sheetCards[c]}</span></label>`,
        )}
      </fieldset>
      <p class="status ${this.phase}" role="status" aria-live="polite">${status}</p>
      <div class="actions">
        <button class="approve" type="button" ?disabled=${busy || done} @click=${() => void this.approve()}>${cat.approve}</button>
        <button class="cancel" type="button" ?disabled=${done} @click=${() => this.cancel()}>${cat.cancel}</button>
      </div>
    </main>`;
  }
}
if (!customElements.get('cpe-wallet-sheet')) customElements.define('cpe-wallet-sheet', WalletSheet);
