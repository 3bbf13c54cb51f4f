/**
 * What CPE knows of one wallet (its id is its key in the registry: `wallet=a` in addresses,
 * `payment_method.wallet` on tokens): a folder of protocol/wallets/ holds it, `wallet.ts` (what every
 * part needs, the SDK included) and `button.ts` (its button's and its tab's look, for the frames and
 * the options' schemas, kept out of the SDK's bundle); a row of `WALLETS` (index.ts) and of
 * `WALLET_BUTTONS` (buttons.ts) registers it. Everything else (the element's button frame and sheet,
 * the Payment Element's tab, the options' and the service's schemas, its tokens) reads the registry.
 * Plain data: no DOM, no Node, no zod.
 */
export interface WalletDescriptor {
  /** Its name as the shopper reads it (the button's label, the sheet's and the dialog's title). */
  name: string;
  /** Its sheet: which of the merchant's options it asks the shopper for (the test sheet's flags). */
  asks: readonly string[];
  /**
   * Its availability check, as the SDK runs it with live keys (components/internal/wallet.ts): its
   * own session API (`'session'`: `ApplePaySession.canMakePayments()`), or the Payment Request API
   * with its method and data.
   */
  check: 'session' | { method: string; data?: object };
}

/** A wallet's button (the wallet-button frame) and its Payment Element tab. */
export interface WalletButtonLook {
  /** The labels and styles the button has, as the wallet's own guidelines name them. */
  types: readonly [string, ...string[]];
  styles: readonly [string, ...string[]];
  /** Types whose label is another catalogue entry's (`plain` → `pay`: "Pay with Wallet B"). */
  labels?: Readonly<Record<string, string>>;
  /** Whether the plain button shows the wallet's mark before its name. */
  plainMark?: boolean;
  /** Its tab's icon: SVG content for a 24×24 viewBox, drawn in currentColor. */
  icon: string;
}
