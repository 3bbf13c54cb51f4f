import type { DialogTexts } from '../../protocol/schemas/bridge.ts';
import { LANGUAGE_TAG } from '../../protocol/runtime/patterns.ts';
import { catalogueOf, LANGUAGES, resolveLanguage } from '../i18n/catalogues.ts';
import en, { type Catalogue } from '../i18n/en.ts';

export type { Catalogue };
export { en, LANGUAGE_TAG, LANGUAGES, resolveLanguage };

/**
 * The catalogue for a language tag, fetched only now (one file per language). An unknown language
 * is English with a console warning, never an error; a catalogue that fails to load (network) is
 * English too, and `failed` says so.
 */
export async function loadCatalogue(tag: string): Promise<{ lang: string; catalogue: Catalogue; failed?: boolean }> {
  const lang = LANGUAGE_TAG.test(tag) ? resolveLanguage(tag) : undefined;
  if (!lang) {
    console.warn(`CPE: language "${tag}" is not supported; showing English. Supported: ${LANGUAGES.join(', ')}.`);
    return { lang: 'en', catalogue: en };
  }
  try {
    return { lang, catalogue: await catalogueOf(lang) };
  } catch {
    return { lang: 'en', catalogue: en, failed: true };
  }
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
  other: 'declined',
} as const satisfies Record<string, keyof Catalogue>;

/** What the SDK says in this language (sent with `ready`: the SDK carries no catalogue): its dialogs, and why a payment did not go through. */
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
