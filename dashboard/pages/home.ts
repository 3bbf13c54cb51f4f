import { html, nothing } from 'lit';
import type { HomeBucket, HomeView } from '../../api/dashboard.ts';
import { requests } from '../app/requests.ts';
import { api } from '../app/api.ts';
import { formatCount, formatDay, formatHour, formatMoney } from '../app/format.ts';
import { LiveEvents } from '../app/live.ts';
import type { DashChart } from '../ui/charts.ts';
import '../ui/charts.ts';
import { DashPage, define } from '../ui/element.ts';

/** Succeeded (and authorised) payments out of those that reached an outcome, as a percentage; null without any. */
const successRate = (bucket: HomeBucket) => (bucket.succeeded + bucket.failed ? (100 * bucket.succeeded) / (bucket.succeeded + bucket.failed) : null);

/**
 * Home: what needs attention (failed webhook deliveries, payments waiting over a day for capture),
 * then volume and success rate per day and per hour, and why cards were declined.
 */
export class HomePage extends DashPage {
  static override properties = { ...DashPage.properties, view: { state: true }, error: { state: true } };
  declare view: HomeView | undefined;
  declare error: string;

  constructor() {
    super();
    this.error = '';
    new LiveEvents(this, () => void this.#load());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load().then(() => this.shown());
  }

  /** The charts' widths, read in one layout before they first render (each would force its own). */
  protected override updated(): void {
    for (const chart of this.querySelectorAll<DashChart>('dash-chart')) if (!chart.width) chart.measure();
  }

  async #load(): Promise<void> {
    try {
      this.view = await api<HomeView>(requests.home());
      this.error = '';
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  #attention(view: HomeView) {
    const { failed_webhooks: failed, uncaptured_over_a_day: uncaptured } = view.attention;
    return html`<section aria-labelledby="attention-title">
      <h2 id="attention-title" class="visually-hidden">Needs attention</h2>
      <div class="stats">
        <a class="stat ${failed ? 'attention' : ''}" href="/dashboard/webhooks">
          <span class="label">Failing webhook deliveries (7 days)</span>
          <span class="value">${failed ?? '—'}</span>
        </a>
        <a class="stat ${uncaptured ? 'attention' : ''}" href="/dashboard/payments?status=requires_capture">
          <span class="label">Uncaptured for over a day</span>
          <span class="value">${uncaptured >= 1000 ? '1,000+' : uncaptured}</span>
        </a>
        <div class="stat">
          <span class="label">Payments today</span>
          <span class="value">${view.days.at(-1)?.payments ?? 0}</span>
        </div>
        <div class="stat">
          <span class="label">Volume today</span>
          <span class="value">${formatMoney(view.days.at(-1)?.volume ?? 0, view.currency)}</span>
        </div>
      </div>
    </section>`;
  }

  #charts(view: HomeView) {
    // Whole units on the scale: the charts' numbers table has them to the penny.
    const money = (value: number) => formatMoney(Math.round(value), view.currency).replace(/\.00$/, '');
    const percent = (value: number) => `${Math.round(value)}%`;
    const days = view.days.map((b) => ({ label: formatDay(b.start), bucket: b }));
    const hours = view.hours.map((b) => ({ label: formatHour(b.start), bucket: b }));
    return html`<div class="grid-2 charts">
        <section class="card" aria-labelledby="volume-days">
          <h2 id="volume-days">Volume per day</h2>
          <dash-chart kind="bar" caption="Volume (${view.currency.toUpperCase()})" .format=${money} .points=${days.map((d) => ({ label: d.label, value: d.bucket.volume }))}></dash-chart>
        </section>
        <section class="card" aria-labelledby="rate-days">
          <h2 id="rate-days">Success rate per day</h2>
          <dash-chart kind="line" caption="Success rate" .max=${100} .format=${percent} .points=${days.map((d) => ({ label: d.label, value: successRate(d.bucket) }))}></dash-chart>
        </section>
        <section class="card" aria-labelledby="volume-hours">
          <h2 id="volume-hours">Volume per hour (24 hours)</h2>
          <dash-chart kind="bar" caption="Volume (${view.currency.toUpperCase()})" .format=${money} .points=${hours.map((h) => ({ label: h.label, value: h.bucket.volume }))}></dash-chart>
        </section>
        <section class="card" aria-labelledby="rate-hours">
          <h2 id="rate-hours">Success rate per hour (24 hours)</h2>
          <dash-chart kind="line" caption="Success rate" .max=${100} .format=${percent} .points=${hours.map((h) => ({ label: h.label, value: successRate(h.bucket) }))}></dash-chart>
        </section>
      </div>
      <section class="card" aria-labelledby="declines-title">
        <h2 id="declines-title">Decline reasons (7 days)</h2>
        ${this.#declines(view)}
      </section>
      <p class="muted">
        From ${formatCount(view.payments_read)} payment${view.payments_read === 1 ? '' : 's'} of the last 7 days${view.capped ? ' (the newest; the week held more)' : ''}.
        ${view.other_currencies ? `${view.other_currencies} in other currencies are not in the volume charts.` : ''} The success rate counts payments that succeeded or were authorised against those that failed.
      </p>`;
  }

  #declines(view: HomeView) {
    if (!view.decline_reasons.length) return html`<p class="muted">No declined cards in the last 7 days.</p>`;
    const top = view.decline_reasons[0]!.count;
    return html`<ul class="bars-list">
      ${view.decline_reasons.map(
        (reason) => html`<li class="row">
          <span>${reason.reason}</span><span>${reason.count}</span>
          <span class="track" aria-hidden="true"><span class="fill fill-${Math.round((100 * reason.count) / top / 5) * 5}"></span></span>
        </li>`,
      )}
    </ul>`;
  }

  protected override render() {
    const view = this.view;
    return html`<div class="page-head">
        <div>
          <h1 tabindex="-1">Home</h1>
          <p class="sub">Test mode at a glance.</p>
        </div>
      </div>
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      ${view ? html`${this.#attention(view)} ${this.#charts(view)}` : html`<p class="muted">Loading…</p>`}`;
  }
}
define('dash-page-home', HomePage);
