import type { DialogTexts } from '../../protocol/schemas/bridge.ts';
import type { Catalogue } from '../../i18n/en.ts';

/** A frame's texts: its language (the resolved tag), its catalogue, and whether loading it failed (English shown). */
export type Texts = { lang: string; catalogue: Catalogue; failed?: boolean };

/** The texts the card form shows, and the SDK's dialogs': what its page carries (the rest of the catalogue is the Flows', the wallets', the 3-D Secure page's). */
export const CARD_FORM_TEXTS = [
  'dir', 'number', 'expiry', 'cvc', 'name', 'numberPlaceholder', 'expiryPlaceholder', 'cvcPlaceholder', 'namePlaceholder',
  'numberIncomplete', 'numberInvalid', 'expiryIncomplete', 'expiryInvalid', 'expiryPast', 'cvcIncomplete', 'nameRequired',
  'refused', 'formTitle', 'acceptedCards', 'unavailable', 'challengeDialog', 'challengeFrame', 'cancel',
  // What pay() tells the shopper when a payment did not go through, and the element's own line (dialogTexts).
  'cardDeclined', 'insufficientFunds', 'cardRefused', 'notProcessed', 'authFailed', 'authCancelled', 'incorrectCvc', 'expiredCard',
  'walletCancelled', 'declined', 'tryAgain', 'loadFailed', 'paid',
] as const satisfies readonly (keyof Catalogue)[];

/** The id of the JSON block in which the service sends a server-rendered page's texts (iframe-app/ssr/). */
export const TEXTS_ID = 'cpe-texts';

/**
 * The texts the service put into a server-rendered page (`{lang, catalogue}`), read without a request:
 * the card form's page carries its language's catalogue, so its code bundles no other.
 */
export function pageTexts(doc: Document = document): Texts | undefined {
  const block = doc.getElementById(TEXTS_ID);
  return block ? (JSON.parse(block.textContent ?? '') as Texts) : undefined;
}

/** `<html lang dir>` for the language in use (right to left for Arabic, Hebrew, Persian, Urdu). */
export function applyLanguage(lang: string, catalogue: Catalogue, doc: Document = document): void {
  doc.documentElement.lang = lang;
  doc.documentElement.dir = catalogue.dir;
}

/**
 * Why a payment did not go through, by the error code the SDK and the service use, as the shopper
 * reads it (each says what happened, once, and what to do); `other` for any code not listed.
 */
export const REASONS = {
  card_declined: 'cardDeclined',
  insufficient_funds: 'insufficientFunds',
  attach_refused: 'cardRefused',
  processing_error: 'notProcessed',
  authentication_failed: 'authFailed',
  challenge_cancelled: 'authCancelled',
  incorrect_cvc: 'incorrectCvc',
  expired_card: 'expiredCard',
  wallet_cancelled: 'walletCancelled',
  // Pressed again once paid (by another element of the page): never "nothing was paid".
  payment_intent_paid: 'paid',
  other: 'declined',
} as const satisfies Record<string, (typeof CARD_FORM_TEXTS)[number]>;

/**
 * What the SDK says in this language (sent with `hello`: the SDK carries no catalogue): its dialogs,
 * why a payment did not go through (pay()'s `error.message`), and the element's own line.
 */
export const dialogTexts = (lang: string, catalogue: Catalogue): DialogTexts => ({
  lang,
  dir: catalogue.dir,
  title: catalogue.challengeDialog,
  frame: catalogue.challengeFrame,
  cancel: catalogue.cancel,
  reasons: Object.fromEntries(Object.entries(REASONS).map(([code, key]) => [code, catalogue[key]])),
  retry: catalogue.tryAgain,
  loadFailed: catalogue.loadFailed,
  notHere: catalogue.unavailable,
});
