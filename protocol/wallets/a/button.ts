import type { WalletButtonLook } from '../descriptor.ts';

/** Wallet A's button: fourteen labels, three styles; the plain button shows the mark before the name. */
export const walletAButton = {
  types: ['add-money', 'book', 'buy', 'check-out', 'contribute', 'donate', 'order', 'plain', 'reload', 'rent', 'subscribe', 'support', 'tip', 'top-up'],
  styles: ['dark', 'white', 'white-outline'],
  plainMark: true,
  icon: '<rect x="2" y="5" width="20" height="15" rx="3" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M16 12.5h6" stroke="currentColor" stroke-width="3"/>',
} as const satisfies WalletButtonLook;
