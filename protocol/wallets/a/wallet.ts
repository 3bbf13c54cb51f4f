import type { WalletDescriptor } from '../descriptor.ts';

/** Wallet A: the stand-in for a wallet with its own session API (as Apple Pay's). Its sheet asks the shopper for nothing beyond the card. */
export const walletA = {
  name: 'Wallet A',
  asks: [],
  check: 'session',
} as const satisfies WalletDescriptor;
