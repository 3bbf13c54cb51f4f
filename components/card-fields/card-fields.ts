import { defineElement } from '../define.ts';
import { CpeCardFields } from './card-fields.component.ts';

export { CpeCardFields };
defineElement('cpe-card-fields', CpeCardFields);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-card-fields': CpeCardFields;
  }
}
