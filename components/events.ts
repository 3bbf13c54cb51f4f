import type { ChangeState } from '../protocol/schemas/bridge.ts';
import type { WalletUnavailableReason } from '../protocol/runtime/wallet.ts';
import type { WalletMethod } from '../protocol/wallets/ids.ts';
import type { PayResult } from './internal/pay.ts';

/**
 * The browser events of the spec, with their exact names. Every one is a DOM `CustomEvent`
 * dispatched on the element with `bubbles` and `composed`, so a listener on the element, on any
 * ancestor or on `document` hears it, even from inside a shadow root.
 */
export const CPE_EVENTS = [
  'cpe:ready',
  'cpe:change',
  'cpe:processing:start',
  'cpe:processing:end',
  'cpe:attach:start',
  'cpe:attach:end',
  'cpe:confirm:start',
  'cpe:confirm:end',
  'cpe:challenge:start',
  'cpe:challenge:end',
  'cpe:authorise:start',
  'cpe:authorise:end',
  'cpe:error',
  'cpe:availability',
  'cpe:wallet:approved',
  'cpe:wallet:cancel',
  'cpe:payment:end',
] as const;

export type CpeEventName = (typeof CPE_EVENTS)[number];

/** What each event carries in `detail`. The spec fixes `complete` (change) and `message` (error); the rest is ours. */
export interface CpeEventDetails {
  'cpe:ready': Record<string, never>;
  /** Never digits: which fields are complete, empty or invalid, and the detected scheme. */
  'cpe:change': ChangeState;
  'cpe:processing:start': Record<string, never>;
  'cpe:processing:end': Record<string, never>;
  'cpe:attach:start': Record<string, never>;
  'cpe:attach:end': { status?: string };
  'cpe:confirm:start': Record<string, never>;
  'cpe:confirm:end': { status?: string };
  'cpe:challenge:start': Record<string, never>;
  /** `completed`, `failed`, or `cancelled` (Escape or the Cancel button). */
  'cpe:challenge:end': { status?: string };
  'cpe:authorise:start': Record<string, never>;
  /** `success`: authorised (wallet A's onAuthoriseEnd reads it). */
  'cpe:authorise:end': { authorised?: boolean; status?: string; success?: boolean };
  /** Operation-scoped: `operation` names what failed; `cause`, what made it fail (createServerIntent's own error). Never a token or a 3DS artefact. */
  'cpe:error': { message: string; code?: string; operation?: string; cause?: string };
  /** Wallets: whether the button renders here, and if not why (not_https, unsupported_browser, no_card_in_wallet, timeout…); `<cpe-payment>` names the `method`. */
  'cpe:availability': { available: boolean; reason?: WalletUnavailableReason; method?: WalletMethod };
  /** Wallets: the shopper approved the sheet (onTokeniseEnd). Never the token. */
  'cpe:wallet:approved': { scheme: string; last4: string; email?: string; billingAddress?: object; assuranceDetails?: object };
  /** Wallets: the shopper cancelled the sheet (onCancel); not an error, nothing was paid. */
  'cpe:wallet:cancel': Record<string, never>;
  /** A whole payment ended (`pay()`, a Flow's button, wallet A, `<cpe-payment>`): `pay()`'s result. Never proof of payment. */
  'cpe:payment:end': PayResult;
}

export type CpeEvent<K extends CpeEventName = CpeEventName> = CustomEvent<CpeEventDetails[K]>;
export type CpeEventMap = { [K in CpeEventName]: CpeEvent<K> };

/** Dispatches `name` on `target` as a bubbling, composed CustomEvent; returns `dispatchEvent`'s answer. */
export function dispatchCpeEvent<K extends CpeEventName>(target: EventTarget, name: K, detail: CpeEventDetails[K]): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  // Typed `addEventListener('cpe:error', (e) => e.detail.message)` on every element and on document.
  interface GlobalEventHandlersEventMap extends CpeEventMap {}
}
