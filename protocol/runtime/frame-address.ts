import type { FrameParams } from '../schemas/frame-url.ts';

/**
 * The zod-free part of the frame address (its schema: protocol/schemas/frame-url.ts), which the
 * merchant-side SDK imports: the frame apps, the card fields, layouts and themes, and the address
 * builder. The frames read it with read-frame-url.ts.
 */
export const FRAME_APPS = ['card-form', 'field', 'flow', 'wallet-button', 'wallet-sheet', 'payment'] as const;
export type FrameAppName = (typeof FRAME_APPS)[number];

/** The methods `<cpe-payment>` offers, in the order of its tabs. */
export const PAYMENT_METHODS = ['card', 'wallet-a', 'wallet-b'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The fields of a card, in their order on the form: the one list (schemas, SDK and frames). */
export const CARD_FIELDS = ['number', 'expiry', 'cvc', 'name'] as const;

export const LAYOUTS = ['stack', 'row-minimal', 'row-compact', 'row', 'column-compact', 'column'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export function frameUrl(serviceOrigin: string, app: FrameAppName, params: FrameParams, session: string): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  return `${serviceOrigin}/frames/${app}/?${query}#${session}`;
}

