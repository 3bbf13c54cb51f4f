import { html, nothing } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';
import { requests } from '../app/requests.ts';
import { api, DashboardError } from '../app/api.ts';
import { PAYMENT_EVENT_TYPES, selects } from '../app/event-types.ts';
import { formatFullTime, formatTime, isoTime } from '../app/format.ts';
import { LiveEvents } from '../app/live.ts';
import { navigate } from '../app/router.ts';
import { toast } from '../app/toast.ts';
import type { EventView, WebhookAttemptView, WebhookEndpointView } from '../app/types.ts';
import { cancelButton, closeDialog, dialog, openDialog } from '../ui/dialog.ts';
import { DashPage, define } from '../ui/element.ts';
import { endpointFields, readEndpointForm, type EndpointForm } from '../ui/endpoint-form.ts';
import '../ui/json-view.ts';
import { CursorPages, pager, type PageRequest } from '../ui/pager.ts';
import { secretBox } from '../ui/secret.ts';
import { httpChip, statusChip } from '../ui/status.ts';

type DialogName = 'edit' | 'rotate' | 'test' | 'delete' | 'disable';

/** The Standard Webhooks headers made at each send (not kept): what each held. */
const SIGNED_HEADERS: Record<string, string> = {
  'webhook-timestamp': 'the time of the send, in Unix seconds',
  'webhook-signature': "v1, then the HMAC-SHA256 of id.timestamp.body with the endpoint's secret (base64)",
};

/** An answer's body as JSON when it is JSON, else as the text it was. */
function answerBody(text: string | null) {
  if (text === null || text === '') return html`<p class="muted">No body.</p>`;
  try {
    return html`<dash-json .value=${JSON.parse(text)} label="Answer body"></dash-json>`;
  } catch {
    return html`<pre class="json" tabindex="0" role="region" aria-label="Answer body">${text}</pre>`;
  }
}

/**
 * One webhook endpoint: its URL and events (Edit), Disable or Enable, Roll the signing secret (the new
 * one shown once), Send test event, Delete; and its delivery attempts, newest first, each with the
 * request sent and the answer received, and Retry.
 */
export class WebhookPage extends DashPage {
  static override properties = {
    ...DashPage.properties,
    endpoint: { state: true },
    missing: { state: true },
    busy: { state: true },
    actionError: { state: true },
    secret: { state: true },
    form: { state: true },
    open: { state: true },
    version: { state: true },
    events: { state: true },
  };
  declare endpoint: WebhookEndpointView | undefined;
  declare missing: string;
  declare busy: boolean;
  declare actionError: string;
  /** A rolled secret, shown once. */
  declare secret: string | undefined;
  declare form: EndpointForm;
  /** The attempt shown in full. */
  declare open: string | undefined;
  declare version: number;
  /** The events attempts sent (their request bodies), by id, as they are opened; null: gone. */
  declare events: Map<string, EventView | null>;
  readonly #attempts = new CursorPages<WebhookAttemptView>((request: PageRequest) =>
    api<ListPage<WebhookAttemptView>>(requests.attempts(this.route.id!, request)),
  );

  constructor() {
    super();
    this.missing = '';
    this.busy = false;
    this.actionError = '';
    this.form = { url: '', all: true, types: [] };
    this.version = 0;
    this.events = new Map();
    // Deliveries follow events: refresh the newest attempts (a failure, a retry's success) as they come.
    new LiveEvents(this, () => {
      if (this.#attempts.atNewest) void this.#reloadAttempts();
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load().then(() => this.shown());
  }

  async #load(): Promise<void> {
    try {
      this.endpoint = await api<WebhookEndpointView>(requests.webhook(this.route.id!));
      await this.#attempts.load();
      this.version++;
    } catch (error) {
      if (error instanceof DashboardError && error.status === 404) this.missing = error.message;
      else throw error;
    }
  }

  async #reloadAttempts(): Promise<void> {
    await this.#attempts.reload();
    this.version++;
  }

  #open(name: DialogName): void {
    this.actionError = '';
    this.secret = undefined;
    const endpoint = this.endpoint!;
    if (name === 'edit') this.form = { url: endpoint.url, all: endpoint.enabled_events.includes('*'), types: endpoint.enabled_events.filter((type) => type !== '*') };
    openDialog(this, `${name}-dialog`);
  }

  /** Runs an action; the dialog closes unless `keepOpen` (a secret to show). */
  async #run(name: DialogName, request: () => Promise<unknown>, done: string, keepOpen = false): Promise<void> {
    this.busy = true;
    this.actionError = '';
    try {
      await request();
      if (!keepOpen) closeDialog(this, `${name}-dialog`);
      toast(done);
      if (name !== 'delete') await this.#load();
    } catch (error) {
      this.actionError = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #path(suffix = ''): string {
    return `/webhook_endpoints/${encodeURIComponent(this.endpoint!.id)}${suffix}`;
  }

  #save(): void {
    const body = readEndpointForm(this, this.form);
    if (typeof body === 'string') {
      this.actionError = body;
      return;
    }
    void this.#run('edit', () => api(this.#path(), { method: 'POST', body }), 'Endpoint saved');
  }

  #rotate(): void {
    void this.#run(
      'rotate',
      async () => {
        this.secret = (await api<WebhookEndpointView>(this.#path('/rotate_secret'), { method: 'POST', body: {} })).secret;
        await this.updateComplete;
        this.querySelector<HTMLElement>('#rolled-secret')?.focus();
      },
      'Signing secret rolled',
      true,
    );
  }

  #forgetSecret(): void {
    this.secret = undefined;
    closeDialog(this, 'rotate-dialog');
  }

  #sendTest(): void {
    const type = this.querySelector<HTMLSelectElement>('#test-type')!.value;
    const newest = this.#attempts.data[0]?.id;
    void this.#run('test', () => api(this.#path('/test'), { method: 'POST', body: { type } }), `Sending your newest ${type} event`).then(() => {
      if (!this.actionError) void this.#followAttempts(newest);
    });
  }

  #delete(): void {
    void this.#run('delete', () => api(this.#path(), { method: 'DELETE' }), 'Endpoint deleted').then(() => {
      if (!this.actionError) navigate('/dashboard/webhooks');
    });
  }

  #toggle(attempt: WebhookAttemptView): void {
    this.open = this.open === attempt.id ? undefined : attempt.id;
    const id = attempt.request.body_event;
    if (this.open && !this.events.has(id))
      void api<EventView>(requests.event(id)).then(
        (event) => (this.events = new Map(this.events).set(id, event)),
        () => (this.events = new Map(this.events).set(id, null)),
      );
  }

  async #retry(attempt: WebhookAttemptView): Promise<void> {
    const newest = this.#attempts.data[0]?.id;
    try {
      await api(`/events/${encodeURIComponent(attempt.event)}/retry`, { method: 'POST', body: { endpoint: this.endpoint!.id } });
      toast(`Sending ${attempt.event_type} again`);
      await this.#followAttempts(newest);
    } catch (error) {
      toast(`Retry failed: ${(error as Error).message}`);
      await this.#reloadAttempts();
    }
  }

  /**
   * After a send (Retry, Send test event), the attempt is recorded once the receiver has answered
   * (within the service's webhook timeout): the newest attempts are fetched again each second until
   * one newer than `newest` shows, for at most 30 seconds.
   */
  async #followAttempts(newest: string | undefined): Promise<void> {
    for (let i = 0; i < 30 && this.isConnected; i++) {
      await new Promise((resolve) => setTimeout(resolve, i === 0 ? 250 : 1000));
      if (!this.#attempts.atNewest) return;
      await this.#reloadAttempts();
      if (this.#attempts.data[0] && this.#attempts.data[0].id !== newest) return;
    }
  }

  #dialogs(endpoint: WebhookEndpointView) {
    const error = this.actionError ? html`<p class="error-text" role="alert">${this.actionError}</p>` : nothing;
    const disabled = endpoint.status === 'disabled';
    return html`${dialog({
      id: 'edit-dialog',
      title: 'Edit the endpoint',
      onSubmit: () => this.#save(),
      body: html`${endpointFields(this.form, (form) => (this.form = form))} ${error}`,
      actions: html`${cancelButton(this, 'edit-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Save</button>`,
    })}
    ${dialog({
      id: 'disable-dialog',
      title: disabled ? 'Enable the endpoint' : 'Disable the endpoint',
      onSubmit: () =>
        void this.#run('disable', () => api(this.#path(), { method: 'POST', body: { disabled: !disabled } }), disabled ? 'Endpoint enabled' : 'Endpoint disabled'),
      body: html`<p>${disabled ? 'Events are sent to this endpoint again, from now on.' : 'No events are sent to this endpoint until it is enabled again.'}</p>
        ${error}`,
      actions: html`${cancelButton(this, 'disable-dialog')}<button class=${disabled ? 'primary' : 'danger'} type="submit" ?disabled=${this.busy}>${disabled ? 'Enable' : 'Disable'}</button>`,
    })}
    ${dialog({
      id: 'rotate-dialog',
      title: this.secret ? 'Your new signing secret' : 'Roll the signing secret',
      // The secret leaves the page in the same task as the dialog closes, not at its later 'close' event.
      onSubmit: () => (this.secret ? this.#forgetSecret() : this.#rotate()),
      onClose: () => (this.secret = undefined),
      body: this.secret
        ? html`<p>Copy it now: it is shown this once. While your receiver switches, deliveries are signed with both secrets.</p>
            ${secretBox('rolled-secret', this.secret, 'Copy the new signing secret')}`
        : html`<p>A new secret signs this endpoint's deliveries. Update your receiver to verify with it.</p>
            ${error}`,
      actions: this.secret
        ? html`<button class="primary" type="submit">Done</button>`
        : html`${cancelButton(this, 'rotate-dialog')}<button class="danger" type="submit" ?disabled=${this.busy}>Roll secret</button>`,
    })}
    ${dialog({
      id: 'test-dialog',
      title: 'Send a test event',
      onSubmit: () => this.#sendTest(),
      body: html`<p>Sends your newest event of this type to this endpoint only, now, signed as any delivery; the attempt shows below.</p>
        <label
          >Event type
          <select id="test-type">
            ${PAYMENT_EVENT_TYPES.filter((type) => endpoint.enabled_events.some((selector) => selects(selector, type))).map((type) => html`<option value=${type}>${type}</option>`)}
          </select></label
        >
        ${error}`,
      actions: html`${cancelButton(this, 'test-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Send test event</button>`,
    })}
    ${dialog({
      id: 'delete-dialog',
      title: 'Delete the endpoint',
      onSubmit: () => this.#delete(),
      body: html`<p>No more events are sent to <code>${endpoint.url}</code>. This cannot be undone.</p>
        ${error}`,
      actions: html`${cancelButton(this, 'delete-dialog')}<button class="danger" type="submit" ?disabled=${this.busy}>Delete endpoint</button>`,
    })}`;
  }

  #attemptRows() {
    const rows = this.#attempts.data;
    if (!rows.length) return html`<p class="empty">No deliveries yet: events the endpoint listens to are sent as they happen.</p>`;
    return html`<div class="table-wrap">
      <table class="list">
        <caption class="visually-hidden">Delivery attempts, newest first</caption>
        <thead>
          <tr><th scope="col">Result</th><th scope="col">Event</th><th scope="col">Answer</th><th scope="col">Time</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          ${rows.map((attempt) => this.#attemptRow(attempt))}
        </tbody>
      </table>
    </div>`;
  }

  #attemptRow(attempt: WebhookAttemptView) {
    const open = this.open === attempt.id;
    const label = `${attempt.event_type} (attempt ${attempt.number})`;
    return html`<tr data-attempt=${attempt.id} data-result=${attempt.result}>
        <td data-label="Result">${statusChip(attempt.result)}${attempt.manual ? html` <span class="muted">retry</span>` : nothing}</td>
        <td data-label="Event"><a href="/dashboard/events/${attempt.event}"><code>${attempt.event_type}</code></a></td>
        <td data-label="Answer">
          ${httpChip(attempt.status_code)} <span class="muted">${attempt.duration_ms} ms</span>
          ${attempt.next_retry_at ? html`<span class="muted">· next try <time datetime=${isoTime(attempt.next_retry_at)}>${formatTime(attempt.next_retry_at)}</time></span>` : nothing}
        </td>
        <td data-label="Time"><time datetime=${isoTime(attempt.created)}>${formatFullTime(attempt.created)}</time></td>
        <td data-label="Actions">
          <div class="actions">
            <button type="button" class="link" aria-expanded=${open ? 'true' : 'false'} aria-controls="attempt-${attempt.id}" @click=${() => this.#toggle(attempt)}>
              ${open ? 'Hide' : 'View'}<span class="visually-hidden"> ${label}</span>
            </button>
            <button type="button" @click=${() => this.#retry(attempt)}>Retry<span class="visually-hidden"> ${label}</span></button>
          </div>
        </td>
      </tr>
      ${open ? html`<tr id="attempt-${attempt.id}" class="attempt-detail"><td colspan="5">${this.#attemptDetail(attempt)}</td></tr>` : nothing}`;
  }

  /** The request sent (its headers, and its body: the event) and the answer received. */
  #attemptDetail(attempt: WebhookAttemptView) {
    const { request } = attempt;
    const event = this.events.get(request.body_event);
    return html`<div class="grid-2">
      <section aria-label="Request sent">
        <h3>Request sent</h3>
        <p><code class="wrap">${request.method} ${request.url}</code></p>
        <dl class="facts headers">
          ${Object.entries(request.headers).map(([name, value]) => html`<dt><code>${name}</code></dt><dd><code class="wrap">${value}</code></dd>`)}
          ${request.signed_headers.map((name) => html`<dt><code>${name}</code></dt><dd class="muted">${SIGNED_HEADERS[name] ?? 'made at the send'}</dd>`)}
        </dl>
        ${event === undefined
          ? html`<p class="muted">Loading the body…</p>`
          : event === null
            ? html`<p class="muted">The body was the event ${request.body_event}, no longer kept.</p>`
            : html`<dash-json .value=${event} label="Request body"></dash-json>`}
      </section>
      <section aria-label="Answer received">
        <h3>Answer received</h3>
        <p>${httpChip(attempt.status_code)} <span class="muted">after ${attempt.duration_ms} ms</span></p>
        ${attempt.error ? html`<p class="error-text">${attempt.error}</p>` : nothing}
        ${attempt.status_code === null ? nothing : answerBody(attempt.response_body)}
      </section>
    </div>`;
  }

  protected override render() {
    if (this.missing) return html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a></p><h1 tabindex="-1">Endpoint not found</h1><p>${this.missing}</p>`;
    const endpoint = this.endpoint;
    if (!endpoint) return html`<h1 tabindex="-1">Webhook endpoint</h1><p class="muted">Loading…</p>`;
    return html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a> / <code>${endpoint.id}</code></p>
      <div class="page-head">
        <div>
          <h1 tabindex="-1" class="url-title">${endpoint.url}</h1>
          <p class="sub">${statusChip(endpoint.status)} ${endpoint.disabled_reason ? html`<span>${endpoint.disabled_reason}</span> ` : nothing}· added ${formatTime(endpoint.created)}</p>
        </div>
        <div class="actions">
          <button type="button" @click=${() => this.#open('test')}>Send test event…</button>
          <button type="button" @click=${() => this.#open('edit')}>Edit…</button>
          <button type="button" @click=${() => this.#open('rotate')}>Roll secret…</button>
          <button type="button" @click=${() => this.#open('disable')}>${endpoint.status === 'disabled' ? 'Enable…' : 'Disable…'}</button>
          <button type="button" @click=${() => this.#open('delete')}>Delete…</button>
        </div>
      </div>
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <dl class="facts">
          <dt>Id</dt>
          <dd><code>${endpoint.id}</code></dd>
          ${endpoint.description ? html`<dt>Description</dt><dd>${endpoint.description}</dd>` : nothing}
          <dt>Events</dt>
          <dd>${endpoint.enabled_events.includes('*') ? 'All events' : endpoint.enabled_events.map((type) => html`<code>${type}</code> `)}</dd>
          <dt>Signing secret</dt>
          <dd><span class="muted">Shown once when made or rolled.</span></dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="attempts-title">
        <h2 id="attempts-title">Deliveries</h2>
        ${this.#attemptRows()} ${pager(this.#attempts, (move) => void move().then(() => this.version++), 'Deliveries')}
      </section>
      ${this.#dialogs(endpoint)}`;
  }
}
define('dash-page-webhook', WebhookPage);
