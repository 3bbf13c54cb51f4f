/**
 * The zod-free part of the wallets' protocol (its schemas: protocol/schemas/wallet.ts): the message
 * type and the sheet address's `r` encoder (wallet-request.ts decodes it). The wallets themselves
 * are the registry of protocol/wallets/.
 */

export const WALLET_MESSAGE_TYPE = 'cpe:wallet:result';

/** The test cards the sheet offers "in the wallet" (POST /frames/wallet/approve `card`), as the card table behaves. */
export const WALLET_TEST_CARD_CHOICES = ['visa', 'challenge', 'declined', 'insufficient', 'attach_fail'] as const;
export type WalletTestCardChoice = (typeof WALLET_TEST_CARD_CHOICES)[number];

/** Why a wallet button is not rendered (the element's `availability` and its event say which). */
export const WALLET_UNAVAILABLE_REASONS = ['not_https', 'unsupported_browser', 'not_enabled_for_merchant', 'no_card_in_wallet', 'timeout'] as const;
export type WalletUnavailableReason = (typeof WALLET_UNAVAILABLE_REASONS)[number];

/** `r` of the sheet's address: base64url (no padding) of the UTF-8 JSON of a WalletRequest. */
export function encodeWalletRequest(request: object): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(request))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

