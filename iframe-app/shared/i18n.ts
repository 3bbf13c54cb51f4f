import type { DialogTexts } from '../../protocol/bridge.ts';
import { LANGUAGE_TAG } from '../../protocol/language-tag.ts';
import { CATALOGUES, LANGUAGES, resolveLanguage } from '../i18n/catalogues.ts';
import en, { type Catalogue } from '../i18n/en.ts';

export type { Catalogue };
export { en, LANGUAGE_TAG, LANGUAGES, resolveLanguage };


/**
 * The catalogue for a language tag, fetched only now (one file per language). An unknown language
 * is English with a console warning, never an error; a catalogue that fails to load (network) is
 * English too, and `failed` says so.
 */
export async function loadCatalogue(tag: string): Promise<{ lang: string; cat: Catalogue; failed?: boolean }> {
  const lang = LANGUAGE_TAG.test(tag) ? resolveLanguage(tag) : undefined;
  if (!lang) {
    console.warn(`CPE: language "${tag}" is not supported; showing English. Supported: ${LANGUAGES.join(', ')}.`);
    return { lang: 'en', cat: en };
  }
  if (lang === 'en') return { lang, cat: en };
  try {
    return { lang, cat: (await CATALOGUES[lang]!()).default };
  } catch {
    return { lang: 'en', cat: en, failed: true };
  }
}

/** `<html lang dir>` for the language in use (right to left for Arabic, Hebrew, Persian, Urdu). */
export function applyLanguage(lang: string, cat: Catalogue, doc: Document = document): void {
  doc.documentElement.lang = lang;
  doc.documentElement.dir = cat.dir;
}

/** What the SDK's dialogs say in this language (sent with `ready`: the SDK carries no catalogue). */
export const dialogTexts = (lang: string, cat: Catalogue): DialogTexts => ({ lang, dir: cat.dir, title: cat.challengeDialog, frame: cat.challengeFrame, cancel: cat.cancel });
