import { html } from 'lit';
import { SCHEME_NAMES, type Scheme } from '../../protocol/runtime/card-schemes.ts';

/**
 * The card schemes' marks, named for assistive technology: each a `<use>` of the shared sprite
 * (marks.ts, `/frames/marks.svg`), fetched when a mark first shows.
 */
export type KnownScheme = Exclude<Scheme, 'unknown'>;

export const SCHEME_LABELS: Record<KnownScheme, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  maestro: 'Maestro',
};

/** Where the sprite is: one file for every card frame (vite.config.ts writes it; the service serves it). */
export const MARKS_URL = '/frames/marks.svg';

/** A scheme's mark, named for assistive technology (`role=img` with its label). */
export const schemeLogo = (scheme: KnownScheme, className = 'logo') =>
  html`<svg class=${className} viewBox="0 0 32 20" role="img" aria-label=${SCHEME_LABELS[scheme]}><use href="${MARKS_URL}#${scheme}"></use></svg>`;

/** A plain card outline where the detected scheme's mark will appear (decorative). */
export const cardOutline = (className = 'logo') =>
  html`<svg class="${className} blank" viewBox="0 0 32 20" aria-hidden="true"><rect x="1" y="1.5" width="30" height="17" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M1 6.5h30" stroke="currentColor" stroke-width="2.4"/><path d="M5 13.5h7" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/></svg>`;

/** In protocol/runtime/card-schemes.ts's order. */
export const KNOWN_SCHEMES = SCHEME_NAMES.filter((s): s is KnownScheme => s !== 'unknown');
