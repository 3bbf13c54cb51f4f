import { directionOf, LANGUAGES, translator, type Language } from './i18n.ts';

/** What every demo page shares: escaping, the config block, the header with its navigation. */
export const escape = (s: string | number) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside a `<script type="application/json">` block. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface PageConfig {
  serviceUrl: string;
  publicKey: string;
  merchantId: number;
}

export interface Shell {
  /** The page's path, for `aria-current`. */
  path: string;
  title: string;
  language: Language;
  /** Items in the basket, shown in the header. */
  basketCount: number;
  /** The language form (the shop's pages); the component pages are in English only. */
  languageForm?: boolean;
  body: string;
  /** Scripts from 'self' (module), the SDK first when given. */
  scripts?: string[];
  /** A JSON config block for the page's script. */
  config?: unknown;
}

const SECTIONS = [
  ['/', 'navShop'],
  ['/basket', 'navBasket'],
  ['/inbox', 'navInbox'],
  ['/components/card', 'navComponents'],
] as const;

/** `page` for the page itself, `true` for the section it belongs to (the checkout and orders: the shop). */
function current(path: string, href: string): string {
  if (href === path) return ' aria-current="page"';
  const section = path.startsWith('/components/') ? '/components/card' : path.startsWith('/inbox') ? '/inbox' : path === '/basket' ? '/basket' : '/';
  return section === href ? ' aria-current="true"' : '';
}

/** A whole demo page: no inline script or style (the demo's CSP allows neither). */
export function shell(s: Shell): string {
  const t = translator(s.language);
  const nav = SECTIONS.map(([href, key]) => {
    const label = key === 'navBasket' && s.basketCount ? `${t(key)} <span class="count">${escape(s.basketCount)}</span>` : t(key);
    return `<a href="${href}"${current(s.path, href)}>${label}</a>`;
  }).join('');
  const languages = Object.entries(LANGUAGES)
    .map(([code, name]) => `<option value="${code}" lang="${code}"${code === s.language ? ' selected' : ''}>${escape(name)}</option>`)
    .join('');
  const languageForm = s.languageForm
    ? `<form class="language" method="post" action="/language"><input type="hidden" name="back" value="${escape(s.path)}">
<label for="language-select">${t('language')}</label> <select id="language-select" name="language">${languages}</select> <button type="submit">${t('change')}</button></form>`
    : '';
  return `<!doctype html>
<html lang="${s.language}" dir="${directionOf(s.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(s.title)} · ${escape(t('brand'))}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/demo.css"></head>
<body>
<a class="skip" href="#main">${s.language === 'de' ? 'Zum Inhalt' : s.language === 'ar' ? 'انتقل إلى المحتوى' : 'Skip to content'}</a>
<header><a class="brand" href="/">${escape(t('brand'))}</a><nav aria-label="${escape(t('mainNav'))}">${nav}</nav>${languageForm}</header>
<main id="main" tabindex="-1">
${s.body}
</main>
${s.config === undefined ? '' : `<script type="application/json" id="cpe-config">${jsonForScript(s.config)}</script>`}
${(s.scripts ?? []).map((src) => `<script type="module" src="${escape(src)}"></script>`).join('\n')}
</body></html>`;
}
