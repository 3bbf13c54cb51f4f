import { html, nothing } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';
import { requests } from '../app/requests.ts';
import { api, DashboardError } from '../app/api.ts';
import { EVENT_GROUPS, PAYMENT_EVENT_TYPES } from '../app/event-types.ts';
import { formatFullTime, isoTime } from '../app/format.ts';
import { LiveEvents } from '../app/live.ts';
import type { EventView } from '../app/types.ts';
import { DashPage, define } from '../ui/element.ts';
import { CursorPages, pager, type PageRequest } from '../ui/pager.ts';

/** Events: every change the API made, newest first, filtered by type (or `prefix.*`); live on the first page. */
export class EventsPage extends DashPage {
  static override properties = { ...DashPage.properties, type: { state: true }, error: { state: true }, version: { state: true } };
  declare type: string;
  declare error: string;
  declare version: number;
  readonly #pages = new CursorPages<EventView>((request: PageRequest) => api<ListPage<EventView>>(requests.events(this.type, request)));

  constructor() {
    super();
    this.type = '';
    this.error = '';
    this.version = 0;
    new LiveEvents(this, () => {
      if (this.#pages.atNewest) void this.#move(() => this.#pages.reload());
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.type = this.route.query.get('type') ?? '';
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

  #filter(type: string): void {
    this.type = type;
    history.replaceState(null, '', type ? `?type=${encodeURIComponent(type)}` : location.pathname);
    void this.#move(() => this.#pages.load());
  }

  protected override render() {
    const rows = this.#pages.data;
    return html`<div class="page-head">
        <div>
          <h1 tabindex="-1">Events</h1>
          <p class="sub">Every change to your payments and refunds, as your webhooks receive them.</p>
        </div>
        <label
          >Type
          <select @change=${(event: Event) => this.#filter((event.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${!this.type}>All types</option>
            ${[...EVENT_GROUPS, ...PAYMENT_EVENT_TYPES].map((type) => html`<option value=${type} ?selected=${this.type === type}>${type}</option>`)}
          </select></label
        >
      </div>
      <section class="card" aria-label="Events list">
        ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
        ${rows.length
          ? html`<div class="table-wrap">
              <table class="list">
                <caption class="visually-hidden">Events, newest first</caption>
                <thead>
                  <tr><th scope="col">Event</th><th scope="col">Object</th><th scope="col">Time</th></tr>
                </thead>
                <tbody>
                  ${rows.map(
                    (event) => html`<tr data-id=${event.id}>
                      <td data-label="Event"><a class="row-link" href="/dashboard/events/${event.id}"><code>${event.type}</code></a></td>
                      <td data-label="Object"><code>${event.data.object.id ?? '—'}</code></td>
                      <td data-label="Time"><time datetime=${isoTime(event.created)}>${formatFullTime(event.created)}</time></td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : html`<p class="empty">No events${this.type ? ` of type ${this.type}` : ''} yet.</p>`}
        ${pager(this.#pages, (move) => void this.#move(move), 'Events')}
      </section>`;
  }
}
define('dash-page-events', EventsPage);
