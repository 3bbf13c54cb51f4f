import type { WalletButtonLook } from '../descriptor.ts';

/** Wallet B's button: eight labels (plain says "Pay with Wallet B"), dark only. */
export const walletBButton = {
  types: ['book', 'buy', 'checkout', 'donate', 'order', 'pay', 'plain', 'subscribe'],
  styles: ['dark'],
  labels: { plain: 'pay', checkout: 'check-out' },
  icon: '<rect x="2" y="5" width="20" height="15" rx="3" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="17" cy="12.5" r="2" fill="currentColor"/>',
} as const satisfies WalletButtonLook;
