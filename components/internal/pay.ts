import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { BillingDetails } from '../../protocol/schemas/elements-options.ts';
import { dispatchCpeEvent } from '../events.ts';
import type { FrameHost } from './frame-host.ts';

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
 * mode), then `middleware.verifyAuth` when set; each step with its usual events. Never throws for a
 * payment that did not go through: it resolves with `error`, clears and focuses the field to fix
 * (the number of a declined card, a wrong code), and keeps the rest of the card. A cancelled or
 * failed challenge keeps every field and puts the focus back on the element. `fixNow` false: the
 * caller clears and focuses later (a Flow, on Try again). Ends with `cpe:payment:end` carrying the
 * result (how a page hears the outcome of an element that pays by itself: wallet A, a Flow, `<cpe-payment>`).
 */
export async function pay(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>), fixNow = true): Promise<PayResult> {
  const result = await run(host, o, wallet, fixNow);
  dispatchCpeEvent(host, 'cpe:payment:end', result);
  return result;
}

async function run(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>), fixNow = true): Promise<PayResult> {
  let status = 'requires_payment_method';
  // The session's intent, once there is one (Checkout Context makes it at the first step).
  const id = () => host.controller?.current?.paymentIntentId ?? '';
  // Resolves once the element has cleared and focused the field to fix: the page's next step finds it so.
  const fail = async (type: PayError['type'], code: string, field?: CardField, clear = !!field, said?: string): Promise<PayResult> => {
    const reasons = host.look().texts?.reasons;
    const error: PayError = { type, code, message: said ?? reasons?.[code] ?? (code in FALLBACK ? FALLBACK[code] : reasons?.other) ?? FALLBACK.other!, ...(field && { field }) };
    if (field && fixNow) await host.fix(field, clear, clear ? error.message : undefined);
    return { status, paymentIntentId: id(), error };
  };
  try {
    // A wallet's approved token (or its sheet, opened now); else the card in the frames.
    const token = typeof wallet === 'function' ? await wallet() : wallet;
    if (!token) await host.tokenise();
    const attached = await host.attach({ ...(token && { token }), ...(o.billingDetails && { billingDetails: o.billingDetails }) });
    status = attached.status;
    if (status === 'requires_payment_method') {
      const retriable = attached.error?.retriable;
      return fail('card_error', retriable ? 'processing_error' : 'attach_refused', retriable || token ? undefined : 'number');
    }
    const confirmed = await host.confirm();
    status = confirmed.status;
    if (status !== 'requires_authorisation') return fail('authentication_error', status === 'requires_customer_authentication' ? 'challenge_cancelled' : 'authentication_failed');
    const { serviceOrigin, middleware } = host.controller!;
    const route = o.authorise ?? middleware.authorise;
    const answer = await host.authorise({ endpoint: route ?? `${serviceOrigin}/intent/authorise`, verify: !!middleware.verifyAuth }, !route);
    status = answer.status ?? status;
    if (answer.authorised === false) {
      const code = answer.error?.code ?? 'card_declined';
      return fail('card_error', code, token ? undefined : FIX[code]);
    }
    return { status, paymentIntentId: id() };
  } catch (error) {
    const { code = 'api_error', option, message } = error as { code?: string; option?: string; message?: string };
    // The frame refused a field before any payment step (incomplete, or the service refused it at
    // tokenise): it shows why under the field, in its language; focus it.
    const field = option as CardField | undefined;
    if (field && ['number', 'expiry', 'cvc', 'name'].includes(field)) return fail('validation_error', code, field, false, message);
    return fail(code === 'wallet_cancelled' ? 'wallet_error' : 'api_error', code);
  }
}

/** The field a refusal's code asks to change, if any (a Flow's Try again clears it). */
export const fieldToFix = (code?: string): CardField | undefined => (code ? FIX[code] : undefined);
