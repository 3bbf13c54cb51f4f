import { walletA } from './a/wallet.ts';
import { walletB } from './b/wallet.ts';

export type { WalletButtonLook, WalletDescriptor } from './descriptor.ts';

/**
 * Every wallet CPE offers, by id: one folder each (descriptor.ts says what it holds), one row here
 * and one in buttons.ts (typed by this table: a wallet without its button does not compile). Adding
 * a wallet is that folder and those rows, its element (components/wallet-<id>/: its public tag and
 * options are its own) and its texts; the rest follows from the registry.
 */
export const WALLETS = { a: walletA, b: walletB } as const;

export type WalletId = keyof typeof WALLETS;
export const WALLET_IDS = Object.keys(WALLETS) as [WalletId, ...WalletId[]];
/** A wallet's Payment Element method (`wallet-a`). */
export type WalletMethod = `wallet-${WalletId}`;
export const WALLET_METHODS = WALLET_IDS.map((id) => `wallet-${id}`) as [WalletMethod, ...WalletMethod[]];

/** The wallet of a Payment Element method (`wallet-b` → `b`). */
export const walletOfMethod = (method: WalletMethod): WalletId => method.slice(7) as WalletId;
