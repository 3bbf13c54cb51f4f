import { walletA } from './a/wallet.ts';
import { walletB } from './b/wallet.ts';

import type { WalletDescriptor } from './descriptor.ts';
import type { WalletId } from './ids.ts';

export type { WalletButtonLook, WalletDescriptor } from './descriptor.ts';
export { WALLET_IDS, WALLET_METHODS, walletOfMethod, type WalletId, type WalletMethod } from './ids.ts';

/**
 * Every wallet CPE offers, by id: one folder each (descriptor.ts says what it holds), its id in
 * ids.ts, one row here (one for each id, and no other: it does not compile otherwise) and one in
 * buttons.ts (typed by this table: a wallet without its button does not compile). Adding a wallet is
 * that folder and those rows, its element (components/wallet-<id>/: its public tag and options are
 * its own) and its texts; the rest follows from the registry.
 */
export const WALLETS = { a: walletA, b: walletB } as const satisfies Record<WalletId, WalletDescriptor>;
