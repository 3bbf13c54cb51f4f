import { html, nothing, svg } from 'lit';
import { DashElement, define } from './element.ts';

/**
 * `<dash-chart>`: a bar chart or a line chart drawn as SVG by hand, at the width it is given (a
 * ResizeObserver redraws it, so its text stays 11 px at 320 px and at 1,400). Chosen over a chart
 * library: the Home page needs two kinds of chart of at most 24 points, which take some 150 lines
 * here against 40 to 50 KB for uPlot or Chart.js; SVG takes the theme's colours from CSS, works
 * under the dashboard's CSP (no inline styles), and axe can read it. Each chart is an image with a
 * summary for screen readers, and its numbers as a table under "Show the numbers".
 */
export interface ChartPoint {
  label: string;
  /** null: nothing to show there (a rate of no payments); a gap in a line, an empty bar. */
  value: number | null;
}

const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 26, left: 24 };

/** The scale's top: 1, 2 or 5 times a power of ten, at or above `value` (1 when there is nothing). */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((step) => step * power >= value) ?? 10) * power;
}

export class DashChart extends DashElement {
  static override properties = {
    kind: {},
    points: { attribute: false },
    caption: {},
    format: { attribute: false },
    max: { type: Number },
    width: { state: true },
    open: { state: true },
  };
  declare kind: 'bar' | 'line';
  declare points: ChartPoint[];
  declare caption: string;
  declare format: (value: number) => string;
  /** The top of the scale (default: the largest value, rounded up to 1, 2 or 5 times a power of ten). */
  declare max: number | undefined;
  /** 0 until measured: the SVG is drawn once, at its real width. */
  declare width: number;
  /** Whether "Show the numbers" is open: its table is made only then. */
  declare open: boolean;
  #observer?: ResizeObserver;

  constructor() {
    super();
    this.kind = 'bar';
    this.points = [];
    this.caption = '';
    this.format = String;
    this.width = 0;
    this.open = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry!.contentRect.width);
      if (width > 0 && width !== this.width) this.width = width;
    });
    this.#observer.observe(this);
  }

  /**
   * Drawn at once at its width (read from the layout), not a frame later when the observer first
   * reports it; a page with several charts may have set it already (one layout for all: home.ts).
   */
  protected override firstUpdated(): void {
    if (!this.width) this.measure();
  }

  /** Takes its width from the layout (a layout, if the page has changed since the last). */
  measure(): void {
    const width = Math.floor(this.getBoundingClientRect().width);
    if (width > 0) this.width = width;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
  }

  /** What a screen reader hears for the image: the range and the highest point. */
  #summary(): string {
    const known = this.points.filter((p): p is { label: string; value: number } => p.value !== null);
    if (!known.length) return `${this.caption}: no data`;
    const top = known.reduce((a, b) => (b.value > a.value ? b : a));
    return `${this.caption}, ${this.points[0]!.label} to ${this.points.at(-1)!.label}: highest ${this.format(top.value)} (${top.label}).`;
  }

  #plot() {
    const width = Math.max(this.width, 200);
    const max = this.max ?? niceCeiling(Math.max(...this.points.map((p) => p.value ?? 0), 0));
    const ticks = [0, 0.5, 1].map((f) => this.format(max * f));
    // Room on the left for the longest scale label (11 px text is about 6.5 px a character).
    const left = Math.max(PAD.left, 10 + 6.5 * Math.max(...ticks.map((t) => t.length)));
    const inner = { w: width - left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
    const y = (value: number) => PAD.top + inner.h - (value / max) * inner.h;
    const step = inner.w / Math.max(this.points.length, 1);
    const x = (i: number) => left + step * i + step / 2;
    // Labels under at most ~8 points, whatever the width: every nth.
    const every = Math.max(1, Math.ceil(this.points.length / Math.max(2, Math.floor(inner.w / 56))));
    const grid = [0, 0.5, 1].map(
      (f, i) => svg`<line class="grid" x1=${left} x2=${width - PAD.right} y1=${y(max * f)} y2=${y(max * f)}></line>
        <text x=${left - 6} y=${y(max * f) + 4} text-anchor="end">${ticks[i]}</text>`,
    );
    const labels = this.points.map((p, i) => (i % every === 0 ? svg`<text x=${x(i)} y=${HEIGHT - 8} text-anchor="middle">${p.label}</text>` : nothing));
    const marks =
      this.kind === 'bar'
        ? this.points.map((p, i) => {
            if (p.value === null) return nothing;
            const w = Math.max(2, step * 0.62);
            return svg`<rect class="bar" x=${x(i) - w / 2} y=${y(p.value)} width=${w} height=${Math.max(0, PAD.top + inner.h - y(p.value))} rx="2"></rect>`;
          })
        : this.#line(x, y);
    return html`<svg width=${width} height=${HEIGHT} viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label=${this.#summary()}>
      ${grid} ${marks} ${labels}
    </svg>`;
  }

  /** A line through the known points, broken where a point is null; a dot on each. */
  #line(x: (i: number) => number, y: (value: number) => number) {
    const runs: string[][] = [[]];
    this.points.forEach((p, i) => (p.value === null ? runs.push([]) : runs.at(-1)!.push(`${x(i)},${y(p.value)}`)));
    return svg`${runs.filter((run) => run.length > 1).map((run) => svg`<polyline class="line" points=${run.join(' ')}></polyline>`)}
      ${this.points.map((p, i) => (p.value === null ? nothing : svg`<circle class="dot" cx=${x(i)} cy=${y(p.value)} r="3"></circle>`))}`;
  }

  protected override render() {
    return html`<figure class="chart">
      ${this.width ? this.#plot() : html`<div class="chart-space"></div>`}
      <figcaption>${this.caption}</figcaption>
      <details class="chart-table" @toggle=${(event: Event) => (this.open = (event.target as HTMLDetailsElement).open)}>
        <summary>Show the numbers</summary>
        ${this.open ? this.#table() : nothing}
      </details>
    </figure>`;
  }

  #table() {
    return html`<table class="list">
          <thead>
            <tr><th scope="col">When</th><th scope="col" class="num">${this.caption}</th></tr>
          </thead>
          <tbody>
            ${this.points.map((p) => html`<tr><td data-label="When">${p.label}</td><td class="num" data-label=${this.caption}>${p.value === null ? '—' : this.format(p.value)}</td></tr>`)}
          </tbody>
        </table>`;
  }
}
define('dash-chart', DashChart);
