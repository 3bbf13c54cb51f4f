import en, { type Catalogue } from './en.ts';

/**
 * Every language the frames and the service's pages speak: each catalogue is its own file (its own
 * chunk in the frames' build), fetched only when that language is in use; English is bundled.
 * Plain data and no DOM, so the service renders its 3-D Secure page from the same texts.
 */
export const CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  af: () => import('./af.ts'),
  ar: () => import('./ar.ts'),
  bg: () => import('./bg.ts'),
  bn: () => import('./bn.ts'),
  ca: () => import('./ca.ts'),
  cs: () => import('./cs.ts'),
  cy: () => import('./cy.ts'),
  da: () => import('./da.ts'),
  de: () => import('./de.ts'),
  el: () => import('./el.ts'),
  'en-US': () => import('./en-US.ts'),
  es: () => import('./es.ts'),
  'es-419': () => import('./es-419.ts'),
  et: () => import('./et.ts'),
  fa: () => import('./fa.ts'),
  fi: () => import('./fi.ts'),
  fil: () => import('./fil.ts'),
  fr: () => import('./fr.ts'),
  'fr-CA': () => import('./fr-CA.ts'),
  ga: () => import('./ga.ts'),
  he: () => import('./he.ts'),
  hi: () => import('./hi.ts'),
  hr: () => import('./hr.ts'),
  hu: () => import('./hu.ts'),
  id: () => import('./id.ts'),
  is: () => import('./is.ts'),
  it: () => import('./it.ts'),
  ja: () => import('./ja.ts'),
  ko: () => import('./ko.ts'),
  lt: () => import('./lt.ts'),
  lv: () => import('./lv.ts'),
  ms: () => import('./ms.ts'),
  mt: () => import('./mt.ts'),
  nb: () => import('./nb.ts'),
  nl: () => import('./nl.ts'),
  pl: () => import('./pl.ts'),
  pt: () => import('./pt.ts'),
  'pt-BR': () => import('./pt-BR.ts'),
  ro: () => import('./ro.ts'),
  ru: () => import('./ru.ts'),
  sk: () => import('./sk.ts'),
  sl: () => import('./sl.ts'),
  sr: () => import('./sr.ts'),
  sv: () => import('./sv.ts'),
  th: () => import('./th.ts'),
  tr: () => import('./tr.ts'),
  uk: () => import('./uk.ts'),
  ur: () => import('./ur.ts'),
  vi: () => import('./vi.ts'),
  zh: () => import('./zh.ts'),
  'zh-HK': () => import('./zh-HK.ts'),
  'zh-TW': () => import('./zh-TW.ts'),
};

/** The catalogue of a supported tag (`resolveLanguage`'s answer): English at once, any other fetched now. */
export async function catalogueOf(lang: string): Promise<Catalogue> {
  if (lang === 'en') return en;
  const load = Object.hasOwn(CATALOGUES, lang) ? CATALOGUES[lang] : undefined;
  if (!load) throw new Error(`No catalogue for "${lang}"`);
  return (await load()).default;
}

/** Every supported tag, English first. */
export const LANGUAGES = ['en', ...Object.keys(CATALOGUES)];

/** Spanish of Latin America and the Caribbean (CLDR's es-419 countries). */
const LATIN_AMERICA = 'ar bo br bz cl co cr cu do ec gt hn mx ni pa pe pr py sv us uy ve 419'.split(' ');

/** Tags that name one of ours another way (old codes, scripts, regions). */
const ALIASES: Record<string, string> = {
  'zh-hans': 'zh',
  'zh-cn': 'zh',
  'zh-sg': 'zh',
  'zh-hant': 'zh-TW',
  'zh-mo': 'zh-HK',
  'zh-hant-hk': 'zh-HK',
  'zh-hant-mo': 'zh-HK',
  no: 'nb',
  nn: 'nb',
  iw: 'he',
  in: 'id',
  tl: 'fil',
  'pt-pt': 'pt',
};

const byLower = new Map(LANGUAGES.map((tag) => [tag.toLowerCase(), tag]));

/**
 * The catalogue a BCP 47 tag resolves to, or undefined: the tag itself (`fr-CA`), an alias
 * (`zh-Hant` → `zh-TW`, `no` → `nb`, `es-MX` → `es-419`), the tag without its script (`zh-Hant-TW`;
 * `zh-Hans-…` is `zh`),
 * else its language (`pt-PT` → `pt`, `de-AT` → `de`, `en-GB` → `en`).
 */
export function resolveLanguage(tag: string): string | undefined {
  const lower = tag.toLowerCase();
  const parts = lower.split('-');
  const primary = parts[0]!;
  const region = parts.find((p, i) => i > 0 && (p.length === 2 || /^\d{3}$/.test(p)));
  // Chinese: the script decides (Simplified or Traditional), then the region.
  if (primary === 'zh' && parts.includes('hans')) return 'zh';
  const candidates = [lower, ALIASES[lower], region && `${primary}-${region}`, region && ALIASES[`${primary}-${region}`]];
  if (primary === 'es' && region && LATIN_AMERICA.includes(region)) candidates.push('es-419');
  candidates.push(ALIASES[primary], primary);
  for (const candidate of candidates) {
    const found = candidate && byLower.get(candidate.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

export type { Catalogue };
