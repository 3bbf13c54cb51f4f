import { catalogueOf, resolveLanguage, type Catalogue } from '../../i18n/catalogues.ts';
import { LANGUAGE_TAG, LANGUAGE_TAG_MAX_LENGTH } from '../../protocol/runtime/patterns.ts';

/**
 * How the 3-D Secure test page looks and speaks: the language and colour scheme of the element that
 * opened it (the SDK adds `lang` and `theme` to the page's address), with the frames' catalogues.
 */
export interface ChallengeLook {
  /** The tag as the element gave it (amounts are formatted for it: `fr-CA`). */
  tag: string;
  /** The catalogue's language (`<html lang>`). */
  lang: string;
  catalogue: Catalogue;
  /** Absent: the page follows `prefers-color-scheme`. */
  scheme?: 'light' | 'dark';
}


/** The look asked for by the page's query (`lang`, `theme`); English and the OS's scheme otherwise. */
export async function challengeLook(query: Record<string, unknown>): Promise<ChallengeLook> {
  const tag = typeof query.lang === 'string' && LANGUAGE_TAG.test(query.lang) && query.lang.length <= LANGUAGE_TAG_MAX_LENGTH ? query.lang : 'en';
  const theme = query.theme;
  const scheme = theme === 'light' || theme === 'dark' ? theme : undefined;
  const lang = resolveLanguage(tag) ?? 'en';
  const catalogue = await catalogueOf(lang);
  return { tag, lang, catalogue, scheme };
}

/** `<html>`'s attributes for a look. */
export const htmlAttributes = (look: ChallengeLook) => `lang="${look.lang}" dir="${look.catalogue.dir}"${look.scheme ? ` class="${look.scheme}"` : ''}`;

const LIGHT = '--bg:#fff;--fg:#1a1c1f;--muted:#50565f;--line:#c9ced6;--ok:#1a7f37;--on-ok:#fff;--focus:#1a5fd6;color-scheme:light';
const DARK = '--bg:#16181c;--fg:#eef0f3;--muted:#b6bcc5;--line:#3d434c;--ok:#5fd381;--on-ok:#0b1f10;--focus:#7cb1ff;color-scheme:dark';

/**
 * The page's style: the frames' palettes and type scale, the content centred in the dialog's frame
 * (EMV window 02, 390×400) so it never leaves a large empty area, the buttons full width.
 */
export const CHALLENGE_STYLE = `:root{${LIGHT}}:root.dark{${DARK}}@media (prefers-color-scheme:dark){:root:not(.light){${DARK}}}
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{box-sizing:border-box;min-height:100vh;max-width:420px;margin:0 auto;padding:24px;display:flex;flex-direction:column;justify-content:center;text-align:center}
.mark{width:36px;height:36px;margin:0 auto 8px;color:var(--ok)}h1{margin:0;font-size:1.125rem;line-height:1.3}
p{margin:4px 0 0}.amount{margin:12px 0 0;font-size:2rem;font-weight:700;line-height:1.2}.note{margin-top:12px;color:var(--muted);font-size:.875rem}
.buttons{display:flex;gap:12px;margin-top:20px}button{flex:1;min-height:44px;padding:8px 16px;border-radius:6px;border:1px solid var(--line);background:transparent;color:var(--fg);font:inherit;font-weight:600;cursor:pointer}
button[value=complete]{background:var(--ok);border-color:var(--ok);color:var(--on-ok)}button:focus-visible{outline:2px solid var(--focus);outline-offset:2px}`;

/** A shield with a check: the page's mark (decorative). */
export const SHIELD = '<svg class="mark" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2.5l8 3v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/><path d="M8.5 12l2.5 2.5 4.5-5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>';
