import en, { type Catalogue } from '../i18n/en.ts';

export type { Catalogue };
export { en };

/** Each language's catalogue is its own chunk, fetched only when that language is in use. */
const LOADERS: Record<string, () => Promise<{ default: Catalogue }>> = {
  cy: () => import('../i18n/cy.ts'),
  fr: () => import('../i18n/fr.ts'),
  de: () => import('../i18n/de.ts'),
  es: () => import('../i18n/es.ts'),
  it: () => import('../i18n/it.ts'),
  nl: () => import('../i18n/nl.ts'),
  ar: () => import('../i18n/ar.ts'),
};
export const LANGUAGES = ['en', ...Object.keys(LOADERS)];

/** The supported language a tag resolves to (`fr-CA` → `fr`), or undefined. */
export function resolveLanguage(tag: string): string | undefined {
  const primary = tag.toLowerCase().split('-')[0]!;
  return LANGUAGES.includes(primary) ? primary : undefined;
}

/**
 * The catalogue for a language tag. An unknown language is English with a console warning, never an
 * error; a catalogue that fails to load (network) is English too, and `failed` says so.
 */
export async function loadCatalogue(tag: string): Promise<{ lang: string; cat: Catalogue; failed?: boolean }> {
  const lang = resolveLanguage(tag);
  if (!lang) {
    console.warn(`CPE: language "${tag}" is not supported; showing English. Supported: ${LANGUAGES.join(', ')}.`);
    return { lang: 'en', cat: en };
  }
  if (lang === 'en') return { lang, cat: en };
  try {
    return { lang, cat: (await LOADERS[lang]!()).default };
  } catch {
    return { lang: 'en', cat: en, failed: true };
  }
}

/** `<html lang dir>` for the language in use. */
export function applyLanguage(lang: string, cat: Catalogue, doc: Document = document): void {
  doc.documentElement.lang = lang;
  doc.documentElement.dir = cat.dir;
}
