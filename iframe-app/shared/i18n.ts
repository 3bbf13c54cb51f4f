import type { DialogTexts } from '../../protocol/schemas/bridge.ts';
import { LANGUAGE_TAG } from '../../protocol/runtime/patterns.ts';
import { catalogueOf, LANGUAGES, resolveLanguage } from '../../i18n/catalogues.ts';
import en, { type Catalogue } from '../../i18n/en.ts';

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

/** What the SDK's dialogs say in this language (sent with `ready`: the SDK carries no catalogue). */
export const dialogTexts = (lang: string, catalogue: Catalogue): DialogTexts => ({ lang, dir: catalogue.dir, title: catalogue.challengeDialog, frame: catalogue.challengeFrame, cancel: catalogue.cancel });
