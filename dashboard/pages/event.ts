import { html, nothing } from 'lit';
import { requests } from '../app/requests.ts';
import { api, DashboardError } from '../app/api.ts';
import { objectHref } from '../app/event-types.ts';
import { formatFullTime, isoTime } from '../app/format.ts';
import type { EventView } from '../app/types.ts';
import { DashPage, define } from '../ui/element.ts';
import '../ui/json-view.ts';

/** One event: what it is about, the request that made it, and its JSON (as a webhook receives it), pretty and copyable. */
export class EventPage extends DashPage {
  static override properties = { ...DashPage.properties, event: { state: true }, missing: { state: true } };
  declare event: EventView | undefined;
  declare missing: string;

  constructor() {
    super();
    this.missing = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load().then(() => this.shown());
  }

  async #load(): Promise<void> {
    try {
      this.event = await api<EventView>(requests.event(this.route.id!));
    } catch (error) {
      if (error instanceof DashboardError && error.status === 404) this.missing = error.message;
      else throw error;
    }
  }

  protected override render() {
    if (this.missing) return html`<p class="crumbs"><a href="/dashboard/events">Events</a></p><h1 tabindex="-1">Event not found</h1><p>${this.missing}</p>`;
    const event = this.event;
    if (!event) return html`<h1 tabindex="-1">Event</h1><p class="muted">Loading…</p>`;
    const href = objectHref(event.data.object);
    return html`<p class="crumbs"><a href="/dashboard/events">Events</a> / <code>${event.id}</code></p>
      <div class="page-head">
        <div>
          <h1 tabindex="-1"><code>${event.type}</code></h1>
          <p class="sub"><time datetime=${isoTime(event.created)}>${formatFullTime(event.created)}</time></p>
        </div>
      </div>
      <section class="card" aria-labelledby="about-title">
        <h2 id="about-title">About this event</h2>
        <dl class="facts">
          <dt>Id</dt>
          <dd><code>${event.id}</code></dd>
          <dt>Object</dt>
          <dd>${href ? html`<a href=${href}><code>${event.data.object.id}</code></a>` : html`<code>${event.data.object.id ?? '—'}</code>`}</dd>
          <dt>Request</dt>
          <dd>${event.request?.id ? html`<code>${event.request.id}</code>` : html`<span class="muted">None (made by the service itself)</span>`}</dd>
          ${event.request?.idempotency_key ? html`<dt>Idempotency key</dt><dd><code>${event.request.idempotency_key}</code></dd>` : nothing}
        </dl>
      </section>
      <section class="card" aria-labelledby="json-title">
        <h2 id="json-title">Event data</h2>
        <dash-json .value=${event} label="Event JSON"></dash-json>
      </section>`;
  }
}
define('dash-page-event', EventPage);
