import { defineElement } from '../define.ts';
import { CpeWalletB } from './wallet-b.component.ts';

export { CpeWalletB };
defineElement('cpe-wallet-b', CpeWalletB);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-wallet-b': CpeWalletB;
  }
}
