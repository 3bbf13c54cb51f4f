import type { FrameParams } from '../schemas/frame-url.ts';
import { WALLET_METHODS } from '../wallets/ids.ts';

/**
 * The zod-free part of the frame address (its schema: protocol/schemas/frame-url.ts), which the
 * merchant-side SDK imports: the frame apps, the card fields, layouts and themes, and the address
 * builder. The frames read it with read-frame-url.ts.
 */
export const FRAME_APPS = ['card-form', 'field', 'flow', 'wallet-button', 'wallet-sheet', 'payment'] as const;
export type FrameAppName = (typeof FRAME_APPS)[number];

/** The methods `<cpe-payment>` offers, in the order of its tabs. */
export const PAYMENT_METHODS = /* @__PURE__ */ (() => ['card', ...WALLET_METHODS] as const)();
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The known methods among `given` (a list, or their names in a string), each once, in `given`'s order. */
export const methodsIn = (given: readonly string[] | string): PaymentMethod[] => PAYMENT_METHODS.filter((m) => given.includes(m)).sort((a, b) => given.indexOf(a) - given.indexOf(b));

/** The fields of a card, in their order on the form: the one list (schemas, SDK and frames). */
export const CARD_FIELDS = ['number', 'expiry', 'cvc', 'name'] as const;

export const LAYOUTS = ['stack', 'row-minimal', 'row-compact', 'row', 'column-compact', 'column'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
/** `cardSchemesDisplay`: every accepted scheme's mark, the detected one's, or none. */
export const CARD_SCHEMES_DISPLAYS = ['all', 'detected', 'none'] as const;

/**
 * The element's look as the frame paints it first: the colour scheme it resolved and its `--cpe-*`
 * tokens. It rides in the address's fragment (never sent to the server, so the page stays one per
 * query), after the session uuid: `#<uuid>&s=dark&w=520&--cpe-radius=4px`; the frame re-validates every
 * token (iframe-app/shared/theme.ts) and applies them before its first paint.
 */
export interface FrameLook {
  scheme?: 'light' | 'dark';
  tokens: Record<string, string>;
  /** The frame's width in CSS pixels as the element lays it out (the frame may parse before it knows it). */
  width?: number;
}

export function frameUrl(serviceOrigin: string, app: FrameAppName, params: FrameParams, session: string, look?: FrameLook): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const fragment = new URLSearchParams(look?.tokens);
  if (look?.scheme) fragment.set('s', look.scheme);
  if (look?.width) fragment.set('w', String(Math.round(look.width)));
  return `${serviceOrigin}/frames/${app}/?${query}#${session}${look ? `&${fragment}` : ''}`;
}

/** A frame's fragment read back: the session uuid (unchecked here) and the look. */
export function readFragment(hash: string): { session: string; look: FrameLook } {
  const [session = '', rest = ''] = hash.slice(1).split(/&(.*)/s);
  const fragment = new URLSearchParams(rest);
  const scheme = fragment.get('s');
  const tokens: Record<string, string> = {};
  for (const [name, value] of fragment) if (name.startsWith('--cpe-')) tokens[name] = value;
  const width = Number(fragment.get('w'));
  return { session, look: { scheme: scheme === 'light' || scheme === 'dark' ? scheme : undefined, tokens, ...(width > 0 && { width }) } };
}

