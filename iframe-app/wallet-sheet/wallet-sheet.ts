import { LitElement, css, html, nothing } from 'lit';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/headers.ts';
import { WalletApproval as WalletApprovalGuard, WalletResult as WalletResultGuard, WalletSession as WalletSessionGuard } from '../../protocol/generated/guards.ts';
import { conforms } from '../../protocol/json-guard.ts';
import type { WalletApproval, WalletRequest, WalletResult, WalletSession, WalletSheetReady } from '../../protocol/wallet.ts';
import { WALLET_MESSAGE_TYPE, WALLET_READY_TYPE, WALLET_TEST_CARD_CHOICES, type WalletTestCardChoice } from '../../protocol/wallet-sheet.ts';
import { fill, formatMinor } from '../shared/format.ts';
import { en, type Catalogue } from '../shared/i18n.ts';
import { walletEn, type WalletCatalogue } from '../shared/wallet-i18n.ts';

/** What the test wallet shares when the merchant asks (and only then). */
export const TEST_WALLET_DETAILS = {
  email: 'shopper@example.test',
  billingAddress: { name: 'Ada Lovelace', address1: '12 Analytical Row', postcode: 'N1 9GU', country: 'GB' },
  assuranceDetails: { accountVerified: true, cardHolderAuthenticated: false },
} as const;

const NAMES = { a: 'Wallet A', b: 'Wallet B' } as const;

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
    :host {
      --_fg: #1a1c1f;
      --_muted: #50565f;
      --_bg: #ffffff;
      --_border: #c9ced6;
      --_accent: #1a5fd6;
      --_focus: #1a5fd6;
      --_error: #b42318;
      display: block;
      box-sizing: border-box;
      min-height: 100vh;
      padding: 20px;
      font: 16px/1.4 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
      color: var(--_fg);
      background: var(--_bg);
    }
    @media (prefers-color-scheme: dark) {
      :host {
        --_fg: #eef0f3;
        --_muted: #b6bcc5;
        --_bg: #16181c;
        --_border: #3d434c;
        --_accent: #7cb1ff;
        --_focus: #7cb1ff;
        --_error: #ff968e;
      }
    }
    h1 {
      margin: 0 0 4px;
      font-size: 1.25em;
    }
    h2 {
      margin: 16px 0 4px;
      font-size: 1em;
    }
    p,
    ul {
      margin: 0 0 8px;
    }
    ul {
      padding-inline-start: 20px;
    }
    .note {
      color: var(--_muted);
      font-size: 0.875em;
    }
    .amount {
      font-size: 1.5em;
      font-weight: 700;
    }
    fieldset {
      margin: 16px 0 0;
      padding: 8px 12px;
      border: 1px solid var(--_border);
      border-radius: 6px;
    }
    legend {
      font-weight: 600;
      padding: 0 4px;
    }
    label {
      display: flex;
      gap: 8px;
      align-items: center;
      padding: 4px 0;
    }
    input:focus-visible,
    button:focus-visible {
      outline: 2px solid var(--_focus);
      outline-offset: 2px;
    }
    .status {
      min-height: 1.4em;
      margin: 12px 0 0;
    }
    .status.failed {
      color: var(--_error);
    }
    .actions {
      display: flex;
      gap: 12px;
      margin-top: 12px;
    }
    button {
      flex: 1;
      min-height: 44px;
      border-radius: 6px;
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
      border: 1px solid var(--_fg);
      background: transparent;
      color: var(--_fg);
    }
    button[disabled] {
      cursor: default;
      opacity: 0.8;
    }
  `;
  static override properties = { cat: { attribute: false }, wcat: { attribute: false }, phase: { state: true }, card: { state: true }, session: { state: true } };

  cat: Catalogue = en;
  wcat: WalletCatalogue = walletEn;
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
    this.win.parent.postMessage({ type: WALLET_READY_TYPE, session: this.uuid } satisfies WalletSheetReady, '*');
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
      r.billingAddressRequired ? html`<li>${this.wcat.sheetBilling}: ${Object.values(d.billingAddress).join(', ')}</li>` : nothing,
      r.emailAddressRequired ? html`<li>${this.wcat.sheetEmail}: ${d.email}</li>` : nothing,
      r.assuranceDetailsRequired ? html`<li>${this.wcat.sheetAssurance}</li>` : nothing,
    ];
    const any = r.billingAddressRequired || r.emailAddressRequired || r.assuranceDetailsRequired;
    return any ? html`<ul>${items}</ul>` : html`<p>${this.wcat.sheetAsksNothing}</p>`;
  }

  override render() {
    const r = this.request;
    const cat = this.cat;
    const w = this.wcat;
    const wallet = NAMES[r.wallet];
    const merchant = r.merchantName || '—';
    const busy = this.phase === 'approving';
    const done = this.phase === 'done';
    const status = busy ? (this.session ? cat.processing : w.sheetWaiting) : this.phase === 'failed' ? w.sheetFailed : '';
    return html`<main aria-labelledby="title">
      <h1 id="title">${fill(w.sheetTitle, { wallet })}</h1>
      <p class="note">${w.sheetTestNote}</p>
      <p>${fill(w.sheetPayTo, { merchant })}</p>
      <p><span>${w.sheetAmount}:</span> <span class="amount">${formatMinor(r.amount, r.currency, this.lang)}</span>${r.label ? html` · ${r.label}` : nothing}</p>
      <h2>${fill(w.sheetAsks, { merchant })}</h2>
      ${this.#asked()}
      ${r.allowCreditCards === false ? html`<p class="note">${w.sheetCreditNo}</p>` : nothing}
      ${r.allowPrepaidCards === false ? html`<p class="note">${w.sheetPrepaidNo}</p>` : nothing}
      <fieldset ?disabled=${busy || done}>
        <legend>${w.sheetCard}</legend>
        ${WALLET_TEST_CARD_CHOICES.map(
          (c) => html`<label><input type="radio" name="card" value=${c} .checked=${this.card === c} @change=${() => (this.card = c)} />${w.sheetCards[c]}</label>`,
        )}
      </fieldset>
      <p class="status ${this.phase}" role="status" aria-live="polite">${status}</p>
      <div class="actions">
        <button class="approve" type="button" ?disabled=${busy || done} @click=${() => void this.approve()}>${w.approve}</button>
        <button class="cancel" type="button" ?disabled=${done} @click=${() => this.cancel()}>${w.cancel}</button>
      </div>
    </main>`;
  }
}
if (!customElements.get('cpe-wallet-sheet')) customElements.define('cpe-wallet-sheet', WalletSheet);
