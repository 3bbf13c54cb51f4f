import { defineElement } from '../define.ts';
import { CpeCard } from './card.component.ts';

export { CpeCard };
defineElement('cpe-card', CpeCard);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-card': CpeCard;
  }
}
