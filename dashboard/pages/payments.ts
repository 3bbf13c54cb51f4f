import { html, nothing } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';
import { api, DashboardError } from '../app/api.ts';
import { paymentFilters, requests, type PaymentFilters } from '../app/requests.ts';
import { cardText, formatMoney, formatTime, isoTime, words } from '../app/format.ts';
import { LiveEvents } from '../app/live.ts';
import { cardOf, createdOf, type PaymentIntentView } from '../app/types.ts';
import { DashPage, define } from '../ui/element.ts';
import { CursorPages, pager, type PageRequest } from '../ui/pager.ts';
import { paymentChip } from '../ui/status.ts';

const STATUSES = [
  'succeeded',
  'requires_capture',
  'failed',
  'cancelled',
  'requires_payment_method',
  'requires_customer_confirmation',
  'requires_customer_authentication',
  'requires_authorisation',
  'open',
] as const;

/**
 * Payments: the merchant's payment intents, newest first, a page at a time by cursor (a merchant may
 * have 100,000), filtered by status and day, searched by id, reference or metadata (`key:value`).
 * New payments appear at the top as they happen (LiveEvents), on the first page.
 */
export class PaymentsPage extends DashPage {
  static override properties = { ...DashPage.properties, filters: { state: true }, error: { state: true }, version: { state: true }, fresh: { state: true } };
  declare filters: PaymentFilters;
  declare error: string;
  declare version: number;
  /** Ids that arrived live since the page was opened (highlighted for a moment, announced). */
  declare fresh: number;
  readonly #pages = new CursorPages<PaymentIntentView>((request: PageRequest) =>
    api<ListPage<PaymentIntentView>>(requests.payments(this.filters, request)),
  );

  constructor() {
    super();
    this.error = '';
    this.version = 0;
    this.fresh = 0;
    new LiveEvents(this, (events) => {
      // Only the first page changes with new payments; a later page stays where the reader is.
      if (this.#pages.atNewest && events.some((event) => event.type.startsWith('payment_intent.') || event.type.startsWith('refund.'))) {
        const before = new Set(this.#pages.data.map((intent) => intent.id));
        void this.#move(() => this.#pages.reload()).then(() => {
          this.fresh = this.#pages.data.filter((intent) => !before.has(intent.id)).length;
        });
      }
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.filters = paymentFilters(this.route.query);
    void this.#move(() => this.#pages.load()).then(() => this.shown());
  }

  async #move(move: () => Promise<void>): Promise<void> {
    try {
      await move();
      this.error = '';
    } catch (error) {
      this.error = error instanceof DashboardError ? error.message : String(error);
    }
    this.version++;
  }

  #apply(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.filters = { status: String(form.get('status') ?? ''), from: String(form.get('from') ?? ''), to: String(form.get('to') ?? ''), q: String(form.get('q') ?? '') };
    const query = new URLSearchParams(Object.entries(this.filters).filter(([, value]) => value !== ''));
    history.replaceState(null, '', `${location.pathname}${query.size ? `?${query}` : ''}`);
    this.fresh = 0;
    void this.#move(() => this.#pages.load());
  }

  #filters() {
    const { status, from, to, q } = this.filters;
    return html`<form class="filters" role="search" aria-label="Filter payments" @submit=${(event: SubmitEvent) => this.#apply(event)}>
      <label
        >Search
        <input type="search" name="q" .value=${q} placeholder="pi_…, reference or key:value" aria-describedby="search-hint" /></label
      >
      <label
        >Status
        <select name="status">
          <option value="" ?selected=${!status}>All</option>
          ${STATUSES.map((value) => html`<option value=${value} ?selected=${status === value}>${words(value)}</option>`)}
        </select></label
      >
      <label>From <input type="date" name="from" .value=${from} /></label>
      <label>To <input type="date" name="to" .value=${to} /></label>
      <button type="submit">Apply</button>
      <p class="hint" id="search-hint">Search by a payment's id, your reference, or metadata as key:value.</p>
    </form>`;
  }

  #table() {
    const rows = this.#pages.data;
    if (!rows.length) return html`<p class="empty">${this.#filtered() ? 'No payments match these filters.' : 'No payments yet. Take one in your shop (or the demo shop) and it appears here.'}</p>`;
    return html`<div class="table-wrap">
      <table class="list">
        <caption class="visually-hidden">Payments, newest first</caption>
        <thead>
          <tr><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Payment method</th><th scope="col">Reference</th><th scope="col">Created</th></tr>
        </thead>
        <tbody>
          ${rows.map(
            (intent) => html`<tr data-id=${intent.id}>
              <td class="num" data-label="Amount">
                <a class="row-link" href="/dashboard/payments/${intent.id}">${formatMoney(intent.amount, intent.currency)}<span class="visually-hidden"> ${intent.currency.toUpperCase()} payment ${intent.id}</span></a>
                <span class="muted" aria-hidden="true"> ${intent.currency.toUpperCase()}</span>
              </td>
              <td data-label="Status">${paymentChip(intent)}</td>
              <td data-label="Payment method">${cardText(cardOf(intent))}</td>
              <td data-label="Reference"><span class="mono">${intent.identifier}</span></td>
              <td data-label="Created"><time datetime=${isoTime(createdOf(intent))}>${formatTime(createdOf(intent))}</time></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #filtered(): boolean {
    return Object.values(this.filters).some((value) => value !== '');
  }

  protected override render() {
    return html`<div class="page-head">
        <div>
          <h1 tabindex="-1">Payments</h1>
          <p class="sub">Newest first. New payments appear here as they happen.</p>
        </div>
      </div>
      ${this.#filters()}
      <section class="card" aria-label="Payments list">
        ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
        <p class="visually-hidden" role="status">${this.fresh ? `${this.fresh} new payment${this.fresh === 1 ? '' : 's'}` : ''}</p>
        ${this.#table()} ${pager(this.#pages, (move) => void this.#move(move), 'Payments')}
      </section>`;
  }
}
define('dash-page-payments', PaymentsPage);
