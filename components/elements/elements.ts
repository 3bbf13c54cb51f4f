import type { ElementsController } from '../controller.ts';
import { defineElement } from '../define.ts';
import { CpeElements } from './elements.component.ts';

export { CpeElements };
defineElement('cpe-elements', CpeElements);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-elements': CpeElements;
  }
  // Typed `provider.addEventListener('cpe-elements:ready', (e) => e.detail.controller)`.
  interface GlobalEventHandlersEventMap {
    'cpe-elements:ready': CustomEvent<{ controller: ElementsController }>;
  }
}
