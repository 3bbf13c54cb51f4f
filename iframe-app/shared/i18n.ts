import { LANGUAGE_TAG } from '../../protocol/runtime/patterns.ts';
import { catalogueOf, LANGUAGES, resolveLanguage } from '../../i18n/catalogues.ts';
import en, { type Catalogue } from '../../i18n/en.ts';
import type { Texts } from './texts.ts';

export type { Catalogue };
export { en, LANGUAGE_TAG, LANGUAGES, resolveLanguage };

/**
 * The catalogue for a language tag, fetched only now (one file per language). An unknown language
 * is English with a console warning, never an error; a catalogue that fails to load (network) is
 * English too, and `failed` says so.
 */
export async function loadCatalogue(tag: string): Promise<Texts> {
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

export { applyLanguage, dialogTexts, REASONS } from './texts.ts';
