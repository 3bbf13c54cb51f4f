import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { BillingDetails } from '../../protocol/schemas/elements-options.ts';
import type { FrameHost } from './frame-host.ts';
import { fieldToFix, type PayError } from './pay.ts';

/**
 * The payment code, a chunk of its own (load-chunks.ts imports it on demand, as the dialogs'): the
 * payment attempt (attach → confirm → authorise, payment-attempt.ts), `pay()`'s steps and the guards
 * of their options and answers. An element fetches it when the shopper starts on it (load-chunks.ts
 * `prefetch`) or at the first operation that needs it: a page whose elements only become ready never does.
 */
export { PaymentAttempt } from './payment-attempt.ts';
export { AttachOptions, AuthOptions, ChallengeOptions, ConfirmOptions, PayOptions } from '../../protocol/runtime/payment-guards.ts';

/** Why a payment did not go through, for pay.ts to say (in the element's language) and act on. */
export interface PayFailure {
  type: PayError['type'];
  code: string;
  /** The field to focus, */
  field?: CardField;
  /** cleared (default: when there is a field), */
  clear?: boolean;
  /** and what the frame said of it (else the element's reason for `code`). */
  said?: string;
}

/**
 * pay.ts's steps: tokenise (unless a wallet's `token`), attach, confirm with 3-D Secure, authorise
 * (`authorise`, else `middleware.authorise`, else the session route as a Flow in direct mode). Never
 * throws for a payment that did not go through: it answers the status reached and why (`failure`).
 */
export async function paySteps(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>)): Promise<{ status: string; failure?: PayFailure }> {
  let status = 'requires_payment_method';
  try {
    // A wallet's approved token (or its sheet, opened now); else the card in the frames.
    const token = typeof wallet === 'function' ? await wallet() : wallet;
    if (!token) await host.tokenise();
    const attached = await host.attach({ ...(token && { token }), ...(o.billingDetails && { billingDetails: o.billingDetails }) });
    status = attached.status;
    if (status === 'requires_payment_method') {
      const retriable = attached.error?.retriable;
      return { status, failure: { type: 'card_error', code: retriable ? 'processing_error' : 'attach_refused', field: retriable || token ? undefined : 'number' } };
    }
    const confirmed = await host.confirm();
    status = confirmed.status;
    if (status !== 'requires_authorisation') return { status, failure: { type: 'authentication_error', code: status === 'requires_customer_authentication' ? 'challenge_cancelled' : 'authentication_failed' } };
    const { serviceOrigin, middleware } = host.controller!;
    const route = o.authorise ?? middleware.authorise;
    const answer = await host.authorise({ endpoint: route ?? `${serviceOrigin}/intent/authorise`, verify: !!middleware.verifyAuth }, !route);
    status = answer.status ?? status;
    if (answer.authorised === false) {
      const code = answer.error?.code ?? 'card_declined';
      return { status, failure: { type: 'card_error', code, field: token ? undefined : fieldToFix(code) } };
    }
    return { status };
  } catch (error) {
    const { code = 'api_error', option, message } = error as { code?: string; option?: string; message?: string };
    // The frame refused a field before any payment step (incomplete, or the service refused it at
    // tokenise): it shows why under the field, in its language; focus it.
    const field = option as CardField | undefined;
    if (field && ['number', 'expiry', 'cvc', 'name'].includes(field)) return { status, failure: { type: 'validation_error', code, field, clear: false, said: message } };
    return { status, failure: { type: code === 'wallet_cancelled' ? 'wallet_error' : 'api_error', code } };
  }
}
