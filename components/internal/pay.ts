import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { BillingDetails } from '../../protocol/schemas/elements-options.ts';
import { dispatchCpeEvent } from '../events.ts';
import type { SdkError } from '../errors.ts';
import type { FrameHost } from './frame-host.ts';
import type { PayFailure } from './payment-steps.ts';

/** Why a payment did not go through, safe to show the shopper: `message` is in the element's language. */
export interface PayError {
  /** `card_error` (the card was refused: use another), `authentication_error` (3-D Secure), `validation_error` (a field to complete), `wallet_error`, `api_error` (the network, the service, your backend). */
  type: 'card_error' | 'authentication_error' | 'validation_error' | 'wallet_error' | 'api_error';
  /** `card_declined`, `insufficient_funds`, `incorrect_cvc`, `challenge_cancelled`, `authentication_failed`, `wallet_cancelled`, `invalid_card`… */
  code: string;
  message: string;
  /** The field the shopper must fix (cleared and focused by the element when it had to change). */
  field?: CardField;
}

/** `pay()`'s answer: the intent's status when it ended, and why it did not go through. Never proof of payment: your backend verifies. */
export interface PayResult {
  status: string;
  paymentIntentId: string;
  error?: PayError;
}

/** What must change after each refusal: cleared, then focused. The rest of the card is kept. */
const FIX: Record<string, CardField> = {
  card_declined: 'number',
  insufficient_funds: 'number',
  attach_refused: 'number',
  incorrect_number: 'number',
  incorrect_cvc: 'cvc',
  invalid_cvc: 'cvc',
  expired_card: 'expiry',
};

/** English, for an element whose frames never said their texts (the SDK carries no catalogue). */
const FALLBACK: Record<string, string> = { payment_intent_paid: 'Payment complete.', other: 'The payment did not go through, so nothing was paid. Try again.' };

/**
 * The whole payment: tokenise (unless a wallet's `token`), attach, confirm with 3-D Secure,
 * authorise (`authorise`, else `middleware.authorise`, else the session route as a Flow in direct
 * mode), then `middleware.verifyAuth` when set; each step with its usual events (the steps are the
 * payment code's, payment-steps.ts, fetched first). Never throws for a payment that did not go
 * through: it resolves with `error`, clears and focuses the field to fix (the number of a declined
 * card, a wrong code), and keeps the rest of the card. A cancelled or failed challenge keeps every
 * field and puts the focus back on the element. `fixNow` false: the caller clears and focuses later
 * (a Flow, on Try again). The payment code not fetched (offline): `cpe:error` `network_error` at
 * once, and an `api_error` result. Ends with `cpe:payment:end` carrying the result (how a page hears
 * the outcome of an element that pays by itself: wallet A, a Flow, `<cpe-payment>`).
 */
export async function pay(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>), fixNow = true): Promise<PayResult> {
  let ended: { status: string; failure?: PayFailure };
  try {
    ended = await (await host.paymentCode()).paySteps(host, o, wallet);
  } catch (error) {
    const { message, code = 'network_error' } = error as SdkError;
    dispatchCpeEvent(host, 'cpe:error', { message, code, operation: 'pay' });
    ended = { status: 'requires_payment_method', failure: { type: 'api_error', code } };
  }
  const { status, failure } = ended;
  const result: PayResult = { status, paymentIntentId: host.controller?.current?.paymentIntentId ?? '' };
  if (failure) {
    const { type, code, field, clear = !!field, said } = failure;
    const reasons = host.look().texts?.reasons;
    result.error = { type, code, message: said ?? reasons?.[code] ?? (code in FALLBACK ? FALLBACK[code] : reasons?.other) ?? FALLBACK.other!, ...(field && { field }) };
    // Resolves once the element has cleared and focused the field to fix: the page's next step finds it so.
    if (field && fixNow) await host.fix(field, clear, clear ? result.error.message : undefined);
  }
  dispatchCpeEvent(host, 'cpe:payment:end', result);
  return result;
}

/** The field a refusal's code asks to change, if any (a Flow's Try again clears it). */
export const fieldToFix = (code?: string): CardField | undefined => (code ? FIX[code] : undefined);
