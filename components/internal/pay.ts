import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { BillingDetails } from '../../protocol/schemas/elements-options.ts';
import { dispatchCpeEvent } from '../events.ts';
import type { SdkError } from '../errors.ts';
import type { FrameHost, PaymentCode } from './frame-host.ts';

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

/** English, for an element whose frames never said their texts (the SDK carries no catalogue). */
export const FALLBACK: Record<string, string> = { payment_intent_paid: 'Payment complete.', other: 'The payment did not go through, so nothing was paid. Try again.' };

/** `pay()`'s error for `code`, its message in the element's language (its frames' reasons), else English. */
export const payError = (host: FrameHost, type: PayError['type'], code: string, said?: string): PayError => {
  const reasons = host.look().texts?.reasons;
  return { type, code, message: said ?? reasons?.[code] ?? (code in FALLBACK ? FALLBACK[code] : reasons?.other) ?? FALLBACK.other! };
};

/**
 * The whole payment (payment-steps.ts `pay`: tokenise, attach, confirm with 3-D Secure, authorise),
 * its code fetched first. Never throws for a payment that did not go through: it resolves with
 * `error`. The payment code not fetched (offline): `cpe:error` `network_error` at once, and an
 * `api_error` result. Ends with `cpe:payment:end` carrying the result (how a page hears the
 * outcome of an element that pays by itself: wallet A, a Flow, `<cpe-payment>`).
 */
export async function pay(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>), fixNow = true): Promise<PayResult> {
  let code: PaymentCode;
  try {
    code = await host.paymentCode();
  } catch (error) {
    const { message, code = 'network_error' } = error as SdkError;
    dispatchCpeEvent(host, 'cpe:error', { message, code, operation: 'pay' });
    const result: PayResult = { status: 'requires_payment_method', paymentIntentId: host.controller?.current?.paymentIntentId ?? '', error: payError(host, 'api_error', code) };
    dispatchCpeEvent(host, 'cpe:payment:end', result);
    return result;
  }
  return code.pay(host, o, wallet, fixNow);
}
