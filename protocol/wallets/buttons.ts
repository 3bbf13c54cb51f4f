import { walletAButton } from './a/button.ts';
import { walletBButton } from './b/button.ts';
import type { WalletButtonLook } from './descriptor.ts';
import type { WalletId } from './index.ts';

/** Each wallet's button and tab (its folder's button.ts), for the frames and the options' schemas; never the SDK's bundle. */
export const WALLET_BUTTONS = { a: walletAButton, b: walletBButton } as const satisfies Record<WalletId, WalletButtonLook>;

/** The appearance lists by the names the elements' options use (`walletA`'s and `walletB`'s `appearance`). */
export const WALLET_A_TYPES = WALLET_BUTTONS.a.types;
export const WALLET_A_STYLES = WALLET_BUTTONS.a.styles;
export const WALLET_B_TYPES = WALLET_BUTTONS.b.types;
export const WALLET_B_STYLES = WALLET_BUTTONS.b.styles;
