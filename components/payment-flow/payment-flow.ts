import { defineElement } from '../define.ts';
import { CpePaymentFlow } from './payment-flow.component.ts';

export { CpePaymentFlow };
defineElement('cpe-payment-flow', CpePaymentFlow);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-payment-flow': CpePaymentFlow;
  }
}
