import { AttachOptions, AuthOptions, ChallengeOptions, ConfirmOptions } from '../../protocol/runtime/payment-guards.ts';
import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { BillingDetails } from '../../protocol/schemas/elements-options.ts';
import type { AttachResponse, ChallengePayload } from '../../protocol/schemas/intent.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import type { ElementsController } from '../controller.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { readIntent } from '../transport/session.ts';
import { postJson } from '../transport/transport.ts';
import type { FrameHost } from './frame-host.ts';
import { loadDialogs } from './load-chunks.ts';
import { parse, type AttachOptions as Attach, type AuthOptions as Auth, type AuthoriseResult, type ChallengeOutcome, type ConfirmOptions as Confirm, type ConfirmResult } from './options.ts';
import { payError, type PayError, type PayResult } from './pay.ts';
import type { PaymentAttempt } from './payment-attempt.ts';

/**
 * The payment code, a chunk of its own (load-chunks.ts imports it on demand, as the dialogs'): the
 * payment attempt (payment-attempt.ts), the ElementsApi steps that run it (`STEPS`), `pay()` and
 * Checkout Context's exchange, with the guards of their options and answers. An element fetches it
 * when the shopper starts on it (load-chunks.ts `prefetch`) or at the first operation that needs it:
 * a page whose elements only become ready never does.
 */
export { PaymentAttempt } from './payment-attempt.ts';
export { PayOptions } from '../../protocol/runtime/payment-guards.ts';
/** The wallet sheet's check of the intent (wallet-sheet.ts, in the dialogs chunk). */
export { readIntent };

/** What a step needs of its element besides its public API (FrameHost's private parts). */
export interface StepRunner {
  host: FrameHost;
  attempt: PaymentAttempt;
  /** Messages' name of the element: `cardElement`, `<cpe-card>`. */
  name: string;
  /** Why attach has no token, when the element says (FrameHost `noToken`: wallet B's sheet not approved yet). */
  noToken?: string;
  /** FrameHost #op: the checks (`at` begins their messages), `…:start`, the work, `cpe:error` on failure, `…:end`. */
  op<T>(operation: string, phase: 'attach' | 'confirm' | 'authorise' | undefined, check: (at: string) => void, work: () => Promise<T>, end?: (result: T) => object): Promise<T>;
  /** The element's mount's signal: aborted when its frames go (and a challenge open in it closes). */
  signal(): AbortSignal | undefined;
}

/** The ElementsApi operations that run the attempt (FrameHost's attach, confirm, handle3DSAuthentication, authorise: their documentation is there). */
export const STEPS = {
  attach(r: StepRunner, options: Attach): Promise<AttachResponse> {
    let o: Attach;
    return r.op(
      'attach',
      'attach',
      (at) => r.attempt.checkAttach(at, (o = parse(at, AttachOptions, options)), r.noToken ?? 'no token: call tokenise() first or pass {token}'),
      async () => r.attempt.attach(o, o.intentId ?? (await r.host.commit()).paymentIntentId),
      (answer) => ({ status: answer.status }),
    );
  },

  async confirm(r: StepRunner, options: Confirm): Promise<ConfirmResult> {
    let o: Confirm;
    let endpoint: string | undefined;
    const result: ConfirmResult = await r.op(
      'confirm',
      'confirm',
      (at) => (endpoint = r.attempt.checkConfirm(at, (o = parse(at, ConfirmOptions, options)))),
      () => r.attempt.confirm(o, (payload) => openChallenge(r, payload)),
      (answer) => ({ status: answer.status }),
    );
    if (o!.autoAuthorise && result.status === 'requires_authorisation')
      result.authorise = await r.host.authoriseViaBackend({ endpoint: endpoint!, payload: o!.authorise?.payload, intentId: r.attempt.confirmedIntent, idempotencyKey: o!.idempotencyKey });
    return result;
  },

  handle3DSAuthentication(r: StepRunner, challenge: ChallengePayload): Promise<ChallengeOutcome> {
    let c: ChallengePayload;
    return r.op(
      'handle3DSAuthentication',
      undefined,
      (at) => {
        c = parse(at, ChallengeOptions, challenge);
        if (!r.host.isConnected) throw new SdkError('invalid_state', `${r.name}: the element must be in the document`);
      },
      () => openChallenge(r, c),
    );
  },

  authorise(r: StepRunner, options: Auth, direct?: boolean): Promise<AuthoriseResult> {
    let o: Auth;
    return r.op(
      'authorise',
      'authorise',
      (at) => r.attempt.checkAuthorise(at, (o = direct ? options : parse(at, AuthOptions, options)), direct),
      () => r.attempt.authorise(o, direct),
      (answer) => ({ authorised: answer.authorised, status: answer.status, success: answer.authorised !== false }),
    );
  },
};

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

/** The field a refusal's code asks to change, if any (a Flow's Try again clears it). */
export const fieldToFix = (code?: string): CardField | undefined => (code ? FIX[code] : undefined);

/** The challenge modal with its events (in the element's mount: it closes when the frames go); the attempt records the outcome. */
async function openChallenge(r: StepRunner, payload: ChallengePayload): Promise<ChallengeOutcome> {
  const { host } = r;
  const dialogs = await loadDialogs(host.shadowRoot!);
  return dialogs.challenge(host, r.name, host.controller!.serviceOrigin, payload, host.look(), r.signal() ?? new AbortController().signal, (outcome) =>
    r.attempt.challenged(outcome, host.controller!.current!.paymentIntentId),
  );
}

/** Why a payment did not go through, for `pay` to say (in the element's language) and act on. */
interface PayFailure {
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
 * The whole payment: tokenise (unless a wallet's `token`), attach, confirm with 3-D Secure,
 * authorise (`authorise`, else `middleware.authorise`, else the session route as a Flow in direct
 * mode), then `middleware.verifyAuth` when set; each step with its usual events. Never throws for a
 * payment that did not go through: it resolves with `error`, clears and focuses the field to fix
 * (the number of a declined card, a wrong code), and keeps the rest of the card. A cancelled or
 * failed challenge keeps every field and puts the focus back on the element. `fixNow` false: the
 * caller clears and focuses later (a Flow, on Try again). Ends with `cpe:payment:end` carrying the result.
 */
export async function pay(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>), fixNow = true): Promise<PayResult> {
  const { status, failure } = await steps(host, o, wallet);
  const result: PayResult = { status, paymentIntentId: host.controller?.current?.paymentIntentId ?? '' };
  if (failure) {
    const { type, code, field, clear = !!field, said } = failure;
    result.error = { ...payError(host, type, code, said), ...(field && { field }) };
    // Resolves once the element has cleared and focused the field to fix: the page's next step finds it so.
    if (field && fixNow) await host.fix(field, clear, clear ? result.error.message : undefined);
  }
  dispatchCpeEvent(host, 'cpe:payment:end', result);
  return result;
}

async function steps(host: FrameHost, o: { authorise?: string; billingDetails?: BillingDetails }, wallet?: string | (() => Promise<string>)): Promise<{ status: string; failure?: PayFailure }> {
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

/**
 * Checkout Context (ElementsController `session`, at the shopper's commit): posts `{context:
 * {amount, currency, reference, identifier}}` to `middleware.exchange`, checks the session it
 * answers (`check`), checks the intent (GET /intent) shows what the page showed, and hands the
 * session to every mounted element. A failure or a disagreement rejects: nothing is charged.
 */
export async function exchange(controller: ElementsController, identifier: string, check: (answer: unknown, where: string) => PaymentIntentSession): Promise<PaymentIntentSession> {
  const context = controller.context!;
  const session = check(await postJson(controller.middleware.exchange!, { context: { ...context, identifier } }, { [IDEMPOTENCY_HEADER]: crypto.randomUUID() }, controller.fetch), 'middleware.exchange');
  controller.current = session;
  try {
    const intent = await readIntent(controller);
    if (intent.amount !== context.amount || intent.currency?.toUpperCase() !== context.currency.toUpperCase())
      throw new SdkError(
        'context_mismatch',
        `middleware.exchange answered an intent of ${intent.amount} ${intent.currency}, not the ${context.amount} ${context.currency.toUpperCase()} shown: nothing was charged.`,
        'context',
      );
  } catch (error) {
    controller.current = undefined;
    throw error;
  }
  await Promise.all([...controller.hosts].map((host) => host.adopt()));
  return session;
}
