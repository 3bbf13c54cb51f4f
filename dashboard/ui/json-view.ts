import { html } from 'lit';
import './copy.ts';
import { DashElement, define } from './element.ts';

/**
 * `<dash-json>`: a JSON value, pretty-printed, with a Copy button (the copied text is exactly what is
 * shown). The block is focusable so a keyboard can scroll a long one.
 */
export class DashJson extends DashElement {
  static override properties = { value: { attribute: false }, label: {} };
  declare value: unknown;
  declare label: string;

  constructor() {
    super();
    this.label = 'JSON';
  }

  protected override render() {
    const text = JSON.stringify(this.value, null, 2) ?? 'null';
    return html`<div class="json-head">
        <span class="muted">${this.label}</span>
        <dash-copy .text=${text} label="Copy ${this.label}"></dash-copy>
      </div>
      <pre class="json" tabindex="0" role="region" aria-label="${this.label}, JSON">${text}</pre>`;
  }
}
define('dash-json', DashJson);
