import { html, nothing } from 'lit';
import type { KeysView, ListPage, RequestRecordView, RolledKey } from '../../api/dashboard.ts';
import { requests } from '../app/requests.ts';
import { api } from '../app/api.ts';
import { formatFullTime, formatTime, isoTime } from '../app/format.ts';
import { toast } from '../app/toast.ts';
import { cancelButton, closeDialog, dialog, openDialog } from '../ui/dialog.ts';
import { DashPage, define } from '../ui/element.ts';
import '../ui/copy.ts';
import '../ui/json-view.ts';
import { CursorPages, pager, type PageRequest } from '../ui/pager.ts';
import { httpChip } from '../ui/status.ts';

type StatusFilter = '' | '2xx' | '4xx' | '5xx';

const EXPIRIES = [
  ['now', 'Now'],
  ['1h', 'In 1 hour'],
  ['24h', 'In 24 hours'],
  ['7d', 'In 7 days'],
] as const;

const SOURCES: Record<RequestRecordView['source'], string> = { api: 'API (licence key)', browser: 'Browser (public key)', dashboard: 'Dashboard' };

/**
 * Developers: the public key, the licence key's last four and Roll key (the new key shown once), and
 * the request log: the merchant's last 1,000 API requests, redacted, filterable by status.
 */
export class DevelopersPage extends DashPage {
  static override properties = {
    ...DashPage.properties,
    keys: { state: true },
    rolled: { state: true },
    rollError: { state: true },
    busy: { state: true },
    status: { state: true },
    open: { state: true },
    version: { state: true },
  };
  declare keys: KeysView | undefined;
  declare rolled: RolledKey | undefined;
  declare rollError: string;
  declare busy: boolean;
  declare status: StatusFilter;
  /** The log entry shown in full. */
  declare open: string | undefined;
  declare version: number;
  readonly #log = new CursorPages<RequestRecordView>((request: PageRequest) =>
    api<ListPage<RequestRecordView>>(requests.requestLog(this.status, request)),
  );

  constructor() {
    super();
    this.rollError = '';
    this.busy = false;
    this.status = '';
    this.version = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const status = this.route.query.get('status');
    if (status === '2xx' || status === '4xx' || status === '5xx') this.status = status;
    void Promise.all([this.#loadKeys(), this.#move(() => this.#log.load())]).then(() => this.shown());
  }

  async #loadKeys(): Promise<void> {
    this.keys = await api<KeysView>(requests.keys());
  }

  async #move(move: () => Promise<void>): Promise<void> {
    await move();
    this.version++;
  }

  #filter(status: StatusFilter): void {
    this.status = status;
    history.replaceState(null, '', status ? `?status=${status}` : location.pathname);
    void this.#move(() => this.#log.load());
  }

  async #roll(): Promise<void> {
    const select = this.querySelector<HTMLSelectElement>('#roll-expiry')!;
    this.busy = true;
    this.rollError = '';
    try {
      this.rolled = await api<RolledKey>('/keys/roll', { method: 'POST', body: { expiry: select.value } });
      await this.#loadKeys();
      await this.updateComplete;
      this.querySelector<HTMLElement>('#rolled-key')?.focus();
    } catch (error) {
      this.rollError = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #closeRoll(): void {
    if (this.rolled) toast('Licence key rolled');
    this.rolled = undefined;
    this.rollError = '';
  }

  #keysCard() {
    const keys = this.keys;
    if (!keys) return html`<section class="card" aria-labelledby="keys-title"><h2 id="keys-title">API keys</h2><p class="muted">Loading…</p></section>`;
    const last4 = keys.licence_key.last4;
    return html`<section class="card" aria-labelledby="keys-title">
      <div class="card-head">
        <h2 id="keys-title">API keys</h2>
        <button type="button" @click=${() => openDialog(this, 'roll-dialog')}>Roll key…</button>
      </div>
      <dl class="facts">
        <dt>Public key</dt>
        <dd>${keys.public_key ? html`<code>${keys.public_key}</code>` : html`<span class="muted">Not known to the dashboard (made before it): see npm run -s credentials.</span>`}</dd>
        <dt>Licence key</dt>
        <dd>
          ${last4 ? html`<code aria-label="Licence key ending ${last4}">sk_test_••••••••${last4}</code>` : html`<span class="muted">Ends in four characters the dashboard has not seen yet (sign in with the key once).</span>`}
          ${keys.licence_key.created_at ? html`<span class="muted"> · made ${formatTime(keys.licence_key.created_at)}</span>` : nothing}
        </dd>
        ${keys.expiring.map(
          (key) => html`<dt>Rolled key</dt>
            <dd><code>sk_test_••••••••${key.last4 ?? '????'}</code> <span class="chip warn">Expires ${formatTime(key.expires_at)}</span></dd>`,
        )}
      </dl>
      <p class="muted">The licence key is for your server only. The dashboard never shows it again after sign-in; Roll key makes a new one and shows it once.</p>
    </section>`;
  }

  #rollDialog() {
    const rolled = this.rolled;
    return dialog({
      id: 'roll-dialog',
      title: rolled ? 'Your new licence key' : 'Roll the licence key',
      onSubmit: () => (rolled ? closeDialog(this, 'roll-dialog') : void this.#roll()),
      onClose: () => this.#closeRoll(),
      body: rolled
        ? html`<p>Copy it now: this is the only time the dashboard shows it.</p>
            <div class="secret-box"><code id="rolled-key" tabindex="-1">${rolled.licence_key}</code><dash-copy .text=${rolled.licence_key} label="Copy the new licence key"></dash-copy></div>
            <p class="muted">
              The old key ${rolled.old_key_expires_at <= Date.now() / 1000 + 1 ? 'no longer works' : html`works until ${formatFullTime(rolled.old_key_expires_at)}`}.
              ${rolled.sessions_ended ? `${rolled.sessions_ended} other dashboard session${rolled.sessions_ended === 1 ? ' was' : 's were'} signed out.` : ''}
              ${rolled.credentials_file_updated ? 'credentials.json now holds the new key, so npm run -s credentials and the demo shop use it.' : ''}
            </p>`
        : html`<p>A new licence key replaces this one. Your servers must switch to it before the old one stops working.</p>
            ${this.keys?.seeded ? html`<p class="notice">This is the seeded test merchant: credentials.json and the running demo shop follow the new key.</p>` : nothing}
            <label
              >The old key stops working
              <select id="roll-expiry">
                ${EXPIRIES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
              </select></label
            >
            <p class="muted">Every other dashboard session of this merchant is signed out.</p>
            ${this.rollError ? html`<p class="error-text" role="alert">${this.rollError}</p>` : nothing}`,
      actions: rolled
        ? html`<button class="primary" type="submit">Done</button>`
        : html`${cancelButton(this, 'roll-dialog')}<button class="danger" type="submit" ?disabled=${this.busy}>Roll key</button>`,
    });
  }

  #logCard() {
    const filters: [StatusFilter, string][] = [
      ['', 'All'],
      ['2xx', 'Succeeded (2xx)'],
      ['4xx', 'Client errors (4xx)'],
      ['5xx', 'Server errors (5xx)'],
    ];
    const rows = this.#log.data;
    return html`<section class="card" aria-labelledby="log-title">
      <div class="card-head">
        <h2 id="log-title">Request log</h2>
        <label
          >Status
          <select @change=${(event: Event) => this.#filter((event.target as HTMLSelectElement).value as StatusFilter)}>
            ${filters.map(([value, label]) => html`<option value=${value} ?selected=${value === this.status}>${label}</option>`)}
          </select></label
        >
      </div>
      <p class="muted">Your last 1,000 requests to the API, newest first. Card numbers, security codes, keys, tokens and secrets are redacted before anything is kept.</p>
      ${rows.length
        ? html`<div class="table-wrap">
            <table class="list">
              <caption class="visually-hidden">API requests</caption>
              <thead>
                <tr><th scope="col">Status</th><th scope="col">Request</th><th scope="col">Source</th><th scope="col">Time</th><th scope="col"><span class="visually-hidden">Details</span></th></tr>
              </thead>
              <tbody>
                ${rows.map((record) => this.#row(record))}
              </tbody>
            </table>
          </div>`
        : html`<p class="empty">No requests${this.status ? ` with a ${this.status} status` : ''} yet.</p>`}
      ${pager(this.#log, (move) => void this.#move(move), 'Request log')}
    </section>`;
  }

  #row(record: RequestRecordView) {
    const open = this.open === record.id;
    return html`<tr data-request=${record.id}>
        <td data-label="Status">${httpChip(record.status)}</td>
        <td data-label="Request"><code>${record.method} ${record.path}</code></td>
        <td data-label="Source">${SOURCES[record.source]}</td>
        <td data-label="Time"><time datetime=${isoTime(record.created_at)}>${formatFullTime(record.created_at)}</time></td>
        <td data-label="Details">
          <button type="button" class="link" aria-expanded=${open ? 'true' : 'false'} aria-controls="detail-${record.id}" @click=${() => (this.open = open ? undefined : record.id)}>
            ${open ? 'Hide' : 'View'}<span class="visually-hidden"> ${record.method} ${record.path}</span>
          </button>
        </td>
      </tr>
      ${open
        ? html`<tr id="detail-${record.id}" class="detail">
            <td colspan="5">
              <dl class="facts">
                <dt>Request id</dt>
                <dd><code>${record.request_id}</code></dd>
                <dt>Idempotency key</dt>
                <dd>${record.idempotency_key ? html`<code>${record.idempotency_key}</code>` : html`<span class="muted">None</span>`}</dd>
                ${record.query ? html`<dt>Query</dt><dd><code>${record.query}</code></dd>` : nothing}
                <dt>Duration</dt>
                <dd>${record.ms} ms</dd>
              </dl>
              ${record.request_body !== undefined ? html`<dash-json .value=${record.request_body} label="Request body"></dash-json>` : nothing}
              ${record.response_body !== undefined ? html`<dash-json .value=${record.response_body} label="Response body"></dash-json>` : nothing}
            </td>
          </tr>`
        : nothing}`;
  }

  protected override render() {
    return html`<div class="page-head">
        <div>
          <h1 tabindex="-1">Developers</h1>
          <p class="sub">Keys and the API requests this merchant made.</p>
        </div>
      </div>
      ${this.#keysCard()} ${this.#logCard()} ${this.#rollDialog()}`;
  }
}
define('dash-page-developers', DevelopersPage);
