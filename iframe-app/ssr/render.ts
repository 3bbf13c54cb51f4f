/**
 * The service's side of the card form page: the form, already laid out in the page the service sends
 * for a frame address, so the shopper sees it (in the address's language, layout, theme and scheme
 * marks) before any script has run. Lit renders the same element it runs in the browser
 * (`<cpe-card-form>`, iframe-app/card-form/) here in Node through `@lit-labs/ssr`, as declarative
 * shadow DOM (Chromium and every evergreen browser attach it while parsing); the page's code takes
 * it over after the first paint (`defer-hydration` until then), keeping what was typed.
 *
 * This module runs in the service's process (server/http/frame-render.ts loads it on first use): it
 * is the one place where browser code runs in Node, with Lit's DOM shim, which is why it is outside
 * both TypeScript projects' narrow lib settings (tsconfig.json checks it with DOM and Node types).
 */
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { FrameParams } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { LANGUAGE_TAG } from '../../protocol/runtime/patterns.ts';
import { catalogueOf, resolveLanguage } from '../../i18n/catalogues.ts';
import { CARD_FORM_TEXTS, TEXTS_ID, type Texts } from '../shared/texts.ts';
import '../card-form/card-form.ts';
import { FORM_MARK } from '../frame-page.ts';
import { minifyCss } from './minify-css.ts';

export { FORM_MARK };

/** What changes a card form page: the rest of the address (the keys, the fragment) does not. */
export function pageKey(query: URLSearchParams): string {
  return ['lang', 'layout', 'theme', 'marks'].map((key) => query.get(key) ?? '').join('|');
}

/** JSON that cannot end its script element or open a comment. */
const inScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The card form page for an address's query, from the built page (`template`, which has FORM_MARK in
 * its body): `<html lang dir>` and the title in the address's language, the texts for the page's code
 * (no catalogue fetched), and the form, unless the address is not one the SDK builds (then the page's
 * code says the form is unavailable, in that language).
 */
export async function renderCardFormPage(template: string, query: URLSearchParams): Promise<string> {
  const tag = query.get('lang') ?? 'en';
  const lang = (LANGUAGE_TAG.test(tag) && resolveLanguage(tag)) || 'en';
  const texts: Texts = { lang, catalogue: await catalogueOf(lang) };
  const sent = { lang, catalogue: Object.fromEntries(CARD_FORM_TEXTS.map((key) => [key, texts.catalogue[key]])) };
  const params = Object.fromEntries(['pk', 'ok', 'lang', 'layout', 'theme', 'marks'].flatMap((key) => (query.has(key) ? [[key, query.get(key)]] : [])));
  let form = '';
  if (conforms(FrameParams, params)) {
    const { layout = 'stack', theme = 'auto', marks = 'detected' } = params;
    form = await collectResult(render(html`<cpe-card-form layout=${layout} theme=${theme} card-schemes-display=${marks} .catalogue=${texts.catalogue} defer-hydration></cpe-card-form>`));
    // Lit's markers for hydration: the page's code draws the form anew when it takes it over (card-inputs.ts).
    form = form.replace(/<!--\/?lit-(part|node)[^>]*-->|<!--\?lit\$\d+\$-->|<\?lit\$\d+\$>/g, '');
    // The styles as the page's code has them (the build minifies its css`…` templates alike).
    form = form.replace(/(<style>)([\s\S]*?)(<\/style>)/g, (_all, open: string, css: string, close: string) => open + minifyCss(css) + close);
  }
  const { catalogue } = texts;
  return template
    .replace(/<html lang="[^"]*">/, `<html lang="${attr(lang)}" dir="${catalogue.dir}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${attr(catalogue.formTitle)}</title>`)
    .replace(FORM_MARK, `${form}<script type="application/json" id="${TEXTS_ID}">${inScript(sent)}</script>`);
}
