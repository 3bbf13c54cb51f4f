import { html, nothing } from 'lit';
import { requests } from '../app/requests.ts';
import { api, DashboardError } from '../app/api.ts';
import { cardText, formatFullTime, formatMoney, isoTime, majorText, parseMoney, words } from '../app/format.ts';
import { LiveEvents } from '../app/live.ts';
import { threeDsText, timeline } from '../app/timeline.ts';
import { toast } from '../app/toast.ts';
import { createdOf, type PaymentIntentView, type PaymentPageView, type RefundView } from '../app/types.ts';
import { cancelButton, closeDialog, dialog, openDialog } from '../ui/dialog.ts';
import { DashPage, define } from '../ui/element.ts';
import '../ui/json-view.ts';
import { paymentChip, statusChip } from '../ui/status.ts';

/** Statuses a payment can still be cancelled from (the service's transition table decides; this only hides the button). */
const CANCELLABLE = new Set(['open', 'requires_payment_method', 'requires_customer_confirmation', 'requires_customer_authentication', 'requires_authorisation', 'requires_capture', 'failed']);

type Action = 'capture' | 'cancel' | 'refund' | 'metadata';

/**
 * A payment: its amount and status, Capture, Cancel and Refund (each through a confirmation dialog),
 * its timeline from its events, its attempts, the verify result, its refunds and its metadata.
 */
export class PaymentPage extends DashPage {
  static override properties = {
    ...DashPage.properties,
    view: { state: true },
    missing: { state: true },
    busy: { state: true },
    actionError: { state: true },
    metadataRows: { state: true },
  };
  declare view: PaymentPageView | undefined;
  declare missing: string;
  declare busy: boolean;
  declare actionError: string;
  declare metadataRows: [string, string][];

  constructor() {
    super();
    this.missing = '';
    this.busy = false;
    this.actionError = '';
    this.metadataRows = [];
    new LiveEvents(this, (events) => {
      const id = this.route.id;
      if (events.some((event) => event.data.object.id === id || event.data.object.payment_intent === id)) void this.#load();
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load().then(() => this.shown());
  }

  async #load(): Promise<void> {
    try {
      this.view = await api<PaymentPageView>(requests.payment(this.route.id!));
    } catch (error) {
      if (error instanceof DashboardError && error.status === 404) this.missing = error.message;
      else throw error;
    }
  }

  #open(action: Action): void {
    this.actionError = '';
    if (action === 'metadata') this.metadataRows = [...Object.entries(this.view?.payment_intent.metadata ?? {}), ['', '']];
    openDialog(this, `${action}-dialog`);
  }

  async #run(action: Action, request: () => Promise<unknown>, done: string): Promise<void> {
    this.busy = true;
    this.actionError = '';
    try {
      await request();
      closeDialog(this, `${action}-dialog`);
      toast(done);
      await this.#load();
    } catch (error) {
      this.actionError = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #amountIn(id: string, intent: PaymentIntentView): number | undefined | null {
    const text = this.querySelector<HTMLInputElement>(`#${id}`)!.value;
    if (!text.trim()) return undefined;
    const amount = parseMoney(text, intent.currency);
    if (amount === undefined || amount <= 0) {
      this.actionError = `Enter an amount such as 5.00 (${intent.currency.toUpperCase()}).`;
      return null;
    }
    return amount;
  }

  #capture(intent: PaymentIntentView): void {
    const amount = this.#amountIn('capture-amount', intent);
    if (amount === null) return;
    void this.#run('capture', () => api(`/payment_intents/${intent.id}/capture`, { method: 'POST', body: amount === undefined ? {} : { amount } }), 'Payment captured');
  }

  #refund(intent: PaymentIntentView): void {
    const amount = this.#amountIn('refund-amount', intent);
    if (amount === null) return;
    const reason = this.querySelector<HTMLSelectElement>('#refund-reason')!.value;
    void this.#run(
      'refund',
      () => api('/refunds', { method: 'POST', body: { payment_intent: intent.id, ...(amount === undefined ? {} : { amount }), ...(reason ? { reason } : {}) } }),
      `Refund of ${formatMoney(amount ?? refundable(intent), intent.currency)} created`,
    );
  }

  #cancel(intent: PaymentIntentView): void {
    const reason = this.querySelector<HTMLSelectElement>('#cancel-reason')!.value;
    void this.#run('cancel', () => api(`/payment_intents/${intent.id}/cancel`, { method: 'POST', body: reason ? { cancellation_reason: reason } : {} }), 'Payment cancelled');
  }

  #saveMetadata(intent: PaymentIntentView): void {
    const metadata: Record<string, string> = {};
    // A key the dialog removed is sent empty: the API removes it, as Stripe's metadata does.
    for (const key of Object.keys(intent.metadata ?? {})) metadata[key] = '';
    for (const [key, value] of this.metadataRows) if (key.trim()) metadata[key.trim()] = value;
    void this.#run('metadata', () => api(`/payment_intents/${intent.id}`, { method: 'POST', body: { metadata } }), 'Metadata saved');
  }

  #actions(intent: PaymentIntentView) {
    return html`<div class="actions">
      ${intent.status === 'requires_capture' ? html`<button class="primary" type="button" @click=${() => this.#open('capture')}>Capture…</button>` : nothing}
      ${intent.status === 'succeeded' && refundable(intent) > 0 ? html`<button type="button" @click=${() => this.#open('refund')}>Refund…</button>` : nothing}
      ${CANCELLABLE.has(intent.status) && intent.cancellation_reason === null ? html`<button type="button" @click=${() => this.#open('cancel')}>Cancel payment…</button>` : nothing}
    </div>`;
  }

  #dialogs(intent: PaymentIntentView) {
    const error = this.actionError ? html`<p class="error-text" role="alert">${this.actionError}</p>` : nothing;
    const authorised = intent.amount_authorised ?? intent.amount;
    return html`${dialog({
      id: 'capture-dialog',
      title: 'Capture this payment',
      onSubmit: () => this.#capture(intent),
      body: html`<p>Captures the authorised ${formatMoney(authorised, intent.currency)}, or less. A payment is captured once; the rest of the authorisation is released.</p>
        <label>Amount to capture (${intent.currency.toUpperCase()}) <input id="capture-amount" inputmode="decimal" autocomplete="off" placeholder=${majorText(authorised, intent.currency)} /></label>
        ${error}`,
      actions: html`${cancelButton(this, 'capture-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Capture</button>`,
    })}
    ${dialog({
      id: 'cancel-dialog',
      title: 'Cancel this payment',
      onSubmit: () => this.#cancel(intent),
      body: html`<p>The payment of ${formatMoney(intent.amount, intent.currency)} is cancelled${intent.status === 'requires_capture' ? ' and its authorisation released' : ''}. This cannot be undone.</p>
        <label
          >Reason
          <select id="cancel-reason">
            <option value="">None given</option>
            <option value="requested_by_customer">Requested by the customer</option>
            <option value="duplicate">Duplicate</option>
            <option value="fraudulent">Fraudulent</option>
            <option value="abandoned">Abandoned</option>
          </select></label
        >
        ${error}`,
      actions: html`${cancelButton(this, 'cancel-dialog', 'Keep payment')}<button class="danger" type="submit" ?disabled=${this.busy}>Cancel payment</button>`,
    })}
    ${dialog({
      id: 'refund-dialog',
      title: 'Refund this payment',
      onSubmit: () => this.#refund(intent),
      body: html`<p>Up to ${formatMoney(refundable(intent), intent.currency)} can be refunded. Leave the amount empty to refund all of it.</p>
        <label>Amount to refund (${intent.currency.toUpperCase()}) <input id="refund-amount" inputmode="decimal" autocomplete="off" placeholder=${majorText(refundable(intent), intent.currency)} /></label>
        <label
          >Reason
          <select id="refund-reason">
            <option value="">None given</option>
            <option value="requested_by_customer">Requested by the customer</option>
            <option value="duplicate">Duplicate</option>
            <option value="fraudulent">Fraudulent</option>
          </select></label
        >
        ${error}`,
      actions: html`${cancelButton(this, 'refund-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Refund</button>`,
    })}
    ${dialog({
      id: 'metadata-dialog',
      title: 'Edit metadata',
      onSubmit: () => this.#saveMetadata(intent),
      body: html`<p class="muted">Keys of up to 40 characters, values of up to 500. Clear a key to remove it.</p>
        ${this.metadataRows.map(
          ([key, value], i) => html`<div class="actions">
            <label>Key <input .value=${key} @input=${(event: Event) => this.#editRow(i, 0, (event.target as HTMLInputElement).value)} maxlength="40" /></label>
            <label>Value <input .value=${value} @input=${(event: Event) => this.#editRow(i, 1, (event.target as HTMLInputElement).value)} maxlength="500" /></label>
          </div>`,
        )}
        <div><button type="button" @click=${() => (this.metadataRows = [...this.metadataRows, ['', '']])}>Add a key</button></div>
        ${error}`,
      actions: html`${cancelButton(this, 'metadata-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Save</button>`,
    })}`;
  }

  #editRow(index: number, column: 0 | 1, text: string): void {
    this.metadataRows = this.metadataRows.map((row, i) => (i === index ? ((column === 0 ? [text, row[1]] : [row[0], text]) as [string, string]) : row));
  }

  #summary(intent: PaymentIntentView) {
    const money = (amount: number | null | undefined) => (amount === null || amount === undefined ? '—' : formatMoney(amount, intent.currency));
    return html`<section class="card" aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <dl class="facts">
        <dt>Id</dt>
        <dd><code>${intent.id}</code></dd>
        <dt>Reference</dt>
        <dd><span class="mono">${intent.identifier}</span></dd>
        <dt>Status</dt>
        <dd>${words(intent.status)}${intent.cancellation_reason ? ` (${words(intent.cancellation_reason).toLowerCase()})` : ''}</dd>
        <dt>Amount</dt>
        <dd>${money(intent.amount)}</dd>
        <dt>Authorised</dt>
        <dd>${money(intent.amount_authorised)}</dd>
        <dt>Captured</dt>
        <dd>${money(intent.amount_received ?? intent.amount_captured)}</dd>
        <dt>Refunded</dt>
        <dd>${money(intent.amount_refunded ?? 0)}</dd>
        <dt>Created</dt>
        <dd><time datetime=${isoTime(createdOf(intent))}>${formatFullTime(createdOf(intent))}</time></dd>
        <dt>Capture</dt>
        <dd>${intent.auto_capture ? 'Automatic' : 'Manual'}${intent.moto ? ' · MOTO' : ''}</dd>
        ${intent.description ? html`<dt>Description</dt><dd>${intent.description}</dd>` : nothing}
      </dl>
    </section>`;
  }

  #timeline(view: PaymentPageView) {
    const entries = timeline(view.events);
    return html`<section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      ${entries.length
        ? html`<ol class="timeline">
            ${entries.map(
              (entry) => html`<li class=${entry.tone}>
                <a href="/dashboard/events/${entry.event.id}">${entry.text}</a>
                <span class="when"><time datetime=${isoTime(entry.event.created)}>${formatFullTime(entry.event.created)}</time> · <code>${entry.event.type}</code></span>
              </li>`,
            )}
          </ol>`
        : html`<p class="muted">No events for this payment yet.</p>`}
    </section>`;
  }

  #attempts(intent: PaymentIntentView) {
    return html`<section class="card" aria-labelledby="attempts-title">
      <h2 id="attempts-title">Attempts</h2>
      ${intent.attempts.length
        ? html`<div class="table-wrap">
            <table class="list">
              <thead>
                <tr><th scope="col">Card</th><th scope="col">3-D Secure</th><th scope="col">Outcome</th><th scope="col">Authorisation</th><th scope="col">Time</th></tr>
              </thead>
              <tbody>
                ${[...intent.attempts].reverse().map(
                  (attempt) => html`<tr>
                    <td data-label="Card">${cardText(attempt.payment_method)}${attempt.payment_method.wallet ? ` (wallet ${attempt.payment_method.wallet.toUpperCase()})` : ''}</td>
                    <td data-label="3-D Secure">${threeDsText(attempt.three_ds)}</td>
                    <td data-label="Outcome">${words(attempt.outcome)}${attempt.error ? html`: <span class="muted">${attempt.error.message}</span>` : nothing}</td>
                    <td data-label="Authorisation">${attempt.authorisation_code ? html`<code>${attempt.authorisation_code}</code>` : '—'}</td>
                    <td data-label="Time"><time datetime=${isoTime(attempt.created_at)}>${formatFullTime(attempt.created_at)}</time></td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p class="muted">No card has been attached yet.</p>`}
    </section>`;
  }

  #refunds(refunds: RefundView[] = []) {
    if (!refunds.length) return nothing;
    return html`<section class="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">Refunds</h2>
      <div class="table-wrap">
        <table class="list">
          <thead>
            <tr><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Id</th><th scope="col">Created</th></tr>
          </thead>
          <tbody>
            ${refunds.map(
              (refund) => html`<tr data-refund=${refund.id}>
                <td class="num" data-label="Amount">${formatMoney(refund.amount, refund.currency)}</td>
                <td data-label="Status">${statusChip(refund.status)}</td>
                <td data-label="Reason">${refund.reason ? words(refund.reason) : '—'}</td>
                <td data-label="Id"><code>${refund.id}</code></td>
                <td data-label="Created"><time datetime=${isoTime(refund.created)}>${formatFullTime(refund.created)}</time></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`;
  }

  #metadata(intent: PaymentIntentView) {
    const entries = Object.entries(intent.metadata ?? {});
    return html`<section class="card" aria-labelledby="metadata-title">
      <div class="card-head">
        <h2 id="metadata-title">Metadata</h2>
        <button type="button" @click=${() => this.#open('metadata')}>Edit metadata…</button>
      </div>
      ${entries.length
        ? html`<dl class="facts">${entries.map(([key, value]) => html`<dt><code>${key}</code></dt><dd>${value}</dd>`)}</dl>`
        : html`<p class="muted">No metadata. Add keys here or with POST /v1/payment_intents/${intent.id}.</p>`}
    </section>`;
  }

  protected override render() {
    if (this.missing)
      return html`<p class="crumbs"><a href="/dashboard/payments">Payments</a></p>
        <h1 tabindex="-1">Payment not found</h1>
        <p>${this.missing}</p>`;
    const view = this.view;
    if (!view) return html`<h1 tabindex="-1">Payment</h1><p class="muted">Loading…</p>`;
    const intent = view.payment_intent;
    return html`<p class="crumbs"><a href="/dashboard/payments">Payments</a> / <code>${intent.id}</code></p>
      <div class="page-head">
        <div>
          <h1 tabindex="-1">${formatMoney(intent.amount, intent.currency)} <span class="muted">${intent.currency.toUpperCase()}</span> ${paymentChip(intent)}</h1>
          <p class="sub">${cardText(intent.attempts.at(-1)?.payment_method)} · ${intent.identifier}</p>
        </div>
        ${this.#actions(intent)}
      </div>
      <div class="grid-2">
        <div>${this.#timeline(view)} ${this.#refunds(view.refunds)}</div>
        <div>${this.#summary(intent)} ${this.#metadata(intent)}</div>
      </div>
      ${this.#attempts(intent)}
      <section class="card" aria-labelledby="verify-title">
        <h2 id="verify-title">Verify result</h2>
        <p class="muted">What POST /v1/payment_intents/verify answers your server (personal fields redacted).</p>
        <dash-json .value=${view.verify} label="Verify result"></dash-json>
      </section>
      ${this.#dialogs(intent)}`;
  }
}

/** What can still be refunded: the captured amount less what was refunded. */
function refundable(intent: PaymentIntentView): number {
  return (intent.amount_received ?? intent.amount_captured) - (intent.amount_refunded ?? 0);
}

define('dash-page-payment', PaymentPage);
