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
  value: number;
}

const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 26, left: 48 };

export class DashChart extends DashElement {
  static override properties = { kind: {}, points: { attribute: false }, caption: {}, format: { attribute: false }, max: { type: Number }, width: { state: true } };
  declare kind: 'bar' | 'line';
  declare points: ChartPoint[];
  declare caption: string;
  declare format: (value: number) => string;
  /** The top of the scale (default: the largest value). */
  declare max: number | undefined;
  declare width: number;
  #observer?: ResizeObserver;

  constructor() {
    super();
    this.kind = 'bar';
    this.points = [];
    this.caption = '';
    this.format = String;
    this.width = 320;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry!.contentRect.width);
      if (width > 0 && width !== this.width) this.width = width;
    });
    this.#observer.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
  }

  /** What a screen reader hears for the image: the range and the highest point. */
  #summary(): string {
    if (!this.points.length) return `${this.caption}: no data`;
    const top = this.points.reduce((a, b) => (b.value > a.value ? b : a));
    return `${this.caption}, ${this.points[0]!.label} to ${this.points.at(-1)!.label}: highest ${this.format(top.value)} (${top.label}).`;
  }

  #plot() {
    const width = Math.max(this.width, 200);
    const inner = { w: width - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
    const max = Math.max(this.max ?? 0, ...this.points.map((p) => p.value), 1);
    const y = (value: number) => PAD.top + inner.h - (value / max) * inner.h;
    const step = inner.w / Math.max(this.points.length, 1);
    const x = (i: number) => PAD.left + step * i + step / 2;
    // Labels under at most ~8 points, whatever the width: every nth.
    const every = Math.max(1, Math.ceil(this.points.length / Math.max(2, Math.floor(inner.w / 56))));
    const grid = [0, 0.5, 1].map(
      (f) => svg`<line class="grid" x1=${PAD.left} x2=${width - PAD.right} y1=${y(max * f)} y2=${y(max * f)}></line>
        <text x=${PAD.left - 6} y=${y(max * f) + 4} text-anchor="end">${this.format(max * f)}</text>`,
    );
    const labels = this.points.map((p, i) => (i % every === 0 ? svg`<text x=${x(i)} y=${HEIGHT - 8} text-anchor="middle">${p.label}</text>` : nothing));
    const marks =
      this.kind === 'bar'
        ? this.points.map((p, i) => {
            const w = Math.max(2, step * 0.62);
            return svg`<rect class="bar" x=${x(i) - w / 2} y=${y(p.value)} width=${w} height=${Math.max(0, PAD.top + inner.h - y(p.value))} rx="2"></rect>`;
          })
        : svg`<polyline class="line" points=${this.points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')}></polyline>
            ${this.points.map((p, i) => svg`<circle class="dot" cx=${x(i)} cy=${y(p.value)} r="3"></circle>`)}`;
    return html`<svg width=${width} height=${HEIGHT} viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label=${this.#summary()}>
      ${grid} ${marks} ${labels}
    </svg>`;
  }

  protected override render() {
    return html`<figure class="chart">
      ${this.#plot()}
      <figcaption>${this.caption}</figcaption>
      <details class="chart-table">
        <summary>Show the numbers</summary>
        <table class="list">
          <thead>
            <tr><th scope="col">When</th><th scope="col" class="num">${this.caption}</th></tr>
          </thead>
          <tbody>
            ${this.points.map((p) => html`<tr><td data-label="When">${p.label}</td><td class="num" data-label=${this.caption}>${this.format(p.value)}</td></tr>`)}
          </tbody>
        </table>
      </details>
    </figure>`;
  }
}
define('dash-chart', DashChart);
