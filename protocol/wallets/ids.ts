/**
 * The wallets' ids, apart from their descriptors (index.ts, whose table must have a row for each and
 * no other: it does not compile otherwise), so a module that only names wallets (a frame's address,
 * the Payment Element's methods, a schema) carries no descriptor into a frame that shows none: the
 * card form's page took 260 bytes of them when the ids were the table's keys.
 */
export const WALLET_IDS = ['a', 'b'] as const;

export type WalletId = (typeof WALLET_IDS)[number];
/** A wallet's Payment Element method (`wallet-a`). */
export type WalletMethod = `wallet-${WalletId}`;
// Pure: a bundle that takes none of these leaves them out (the card form page's first-paint script).
export const WALLET_METHODS = /* @__PURE__ */ WALLET_IDS.map((id) => `wallet-${id}` as const) as unknown as readonly [WalletMethod, ...WalletMethod[]];

/** The wallet of a Payment Element method (`wallet-b` → `b`). */
export const walletOfMethod = (method: WalletMethod): WalletId => method.slice(7) as WalletId;
