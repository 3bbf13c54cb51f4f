import { html } from 'lit';
import { CardInputs } from '../shared/card-inputs.ts';

/**
 * `<cpe-card-form layout>`: the four card fields in one frame, laid out as the spec's layout table
 * says (the CSS in shared/styles.ts keys on the `layout` attribute): `stack` (number and name full
 * width, expiry and security code side by side), `row-minimal` (one row, placeholders as labels,
 * labels visually hidden), `row-compact` (one row, small labels above), `row` (one row, full labels),
 * `column-compact` (one per row, small labels, tight), `column` (one per row, full labels).
 */
export class CardForm extends CardInputs {
  override render() {
    return html`${this.renderBadgeStrip()}
      <div class="grid">${this.fields.map((f) => this.renderField(f))}</div>`;
  }
}
if (!customElements.get('cpe-card-form')) customElements.define('cpe-card-form', CardForm);
