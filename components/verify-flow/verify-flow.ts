import { defineElement } from '../define.ts';
import { CpeVerifyFlow } from './verify-flow.component.ts';

export { CpeVerifyFlow };
defineElement('cpe-verify-flow', CpeVerifyFlow);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-verify-flow': CpeVerifyFlow;
  }
}
