import { defineElement } from '../define.ts';
import { CpePayment } from './payment.component.ts';

export { CpePayment };
defineElement('cpe-payment', CpePayment);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-payment': CpePayment;
  }
}
