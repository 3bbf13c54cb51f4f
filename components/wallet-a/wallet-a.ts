import { defineElement } from '../define.ts';
import { CpeWalletA } from './wallet-a.component.ts';

export { CpeWalletA };
defineElement('cpe-wallet-a', CpeWalletA);

declare global {
  interface HTMLElementTagNameMap {
    'cpe-wallet-a': CpeWalletA;
  }
}
