import { defineElement } from '../define.ts';
import { CpeElements } from './elements.component.ts';

export { CpeElements };
defineElement('cpe-elements', CpeElements);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-elements': CpeElements;
  }
}
