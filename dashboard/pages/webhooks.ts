import { html, nothing } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';
import { requests } from '../app/requests.ts';
import { api, DashboardError } from '../app/api.ts';
import { formatTime, isoTime } from '../app/format.ts';
import { navigate } from '../app/router.ts';
import type { WebhookEndpointView } from '../app/types.ts';
import { cancelButton, closeDialog, dialog, openDialog } from '../ui/dialog.ts';
import { DashPage, define } from '../ui/element.ts';
import { endpointFields, readEndpointForm, type EndpointForm } from '../ui/endpoint-form.ts';
import { secretBox } from '../ui/secret.ts';
import { statusChip } from '../ui/status.ts';

/** Webhooks: the merchant's endpoints; Add endpoint (its signing secret shown once). */
export class WebhooksPage extends DashPage {
  static override properties = {
    ...DashPage.properties,
    endpoints: { state: true },
    error: { state: true },
    formError: { state: true },
    busy: { state: true },
    created: { state: true },
    form: { state: true },
  };
  declare endpoints: WebhookEndpointView[] | undefined;
  declare error: string;
  declare formError: string;
  declare busy: boolean;
  /** The endpoint just made, with its secret (shown this once). */
  declare created: WebhookEndpointView | undefined;
  declare form: EndpointForm;

  constructor() {
    super();
    this.error = '';
    this.formError = '';
    this.busy = false;
    this.form = { url: '', all: true, types: [] };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load().then(() => this.shown());
  }

  async #load(): Promise<void> {
    try {
      this.endpoints = (await api<ListPage<WebhookEndpointView>>(requests.webhooks())).data;
      this.error = '';
    } catch (error) {
      this.endpoints = [];
      this.error = error instanceof DashboardError ? error.message : String(error);
    }
  }

  #add(): void {
    this.created = undefined;
    this.formError = '';
    this.form = { url: '', all: true, types: [] };
    openDialog(this, 'add-dialog');
  }

  async #create(): Promise<void> {
    const body = readEndpointForm(this, this.form);
    if (typeof body === 'string') {
      this.formError = body;
      return;
    }
    this.busy = true;
    this.formError = '';
    try {
      this.created = await api<WebhookEndpointView>('/webhook_endpoints', { method: 'POST', body });
      await this.#load();
      await this.updateComplete;
      this.querySelector<HTMLElement>('#new-secret')?.focus();
    } catch (error) {
      this.formError = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #dialog() {
    const created = this.created;
    return dialog({
      id: 'add-dialog',
      title: created ? 'Endpoint added' : 'Add a webhook endpoint',
      onSubmit: () => {
        if (!created) return void this.#create();
        this.created = undefined; // the secret leaves the page as the dialog closes
        closeDialog(this, 'add-dialog');
        navigate(`/dashboard/webhooks/${created.id}`);
      },
      onClose: () => (this.created = undefined),
      body: created
        ? html`<p>Events are sent to <code>${created.url}</code>, signed with this secret (Standard Webhooks). Copy it now: it is shown this once.</p>
            ${secretBox('new-secret', created.secret ?? '', 'Copy the signing secret')}`
        : html`${endpointFields(this.form, (form) => (this.form = form))}
            ${this.formError ? html`<p class="error-text" role="alert">${this.formError}</p>` : nothing}`,
      actions: created
        ? html`<button class="primary" type="submit">Open the endpoint</button>`
        : html`${cancelButton(this, 'add-dialog')}<button class="primary" type="submit" ?disabled=${this.busy}>Add endpoint</button>`,
    });
  }

  protected override render() {
    const endpoints = this.endpoints;
    return html`<div class="page-head">
        <div>
          <h1 tabindex="-1">Webhooks</h1>
          <p class="sub">Endpoints that receive your events, signed, with retries.</p>
        </div>
        <button class="primary" type="button" @click=${() => this.#add()}>Add endpoint…</button>
      </div>
      <section class="card" aria-label="Webhook endpoints">
        ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
        ${!endpoints
          ? html`<p class="muted">Loading…</p>`
          : endpoints.length
            ? html`<div class="table-wrap">
                <table class="list">
                  <caption class="visually-hidden">Webhook endpoints</caption>
                  <thead>
                    <tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col">Created</th></tr>
                  </thead>
                  <tbody>
                    ${endpoints.map(
                      (endpoint) => html`<tr data-id=${endpoint.id}>
                        <td data-label="URL"><a class="row-link" href="/dashboard/webhooks/${endpoint.id}">${endpoint.url}</a></td>
                        <td data-label="Status">${statusChip(endpoint.status)}</td>
                        <td data-label="Events">${endpoint.enabled_events.includes('*') ? 'All events' : endpoint.enabled_events.join(', ')}</td>
                        <td data-label="Created">${endpoint.created ? html`<time datetime=${isoTime(endpoint.created)}>${formatTime(endpoint.created)}</time>` : '—'}</td>
                      </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
            : html`<p class="empty">No endpoints yet. Add one to receive your events at a URL of yours.</p>`}
      </section>
      ${this.#dialog()}`;
  }
}
define('dash-page-webhooks', WebhooksPage);
