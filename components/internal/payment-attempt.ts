import { IDEMPOTENCY_HEADER } from '../../protocol/runtime/headers.ts';
import type { Guard } from '../../protocol/runtime/json-guard.ts';
import { AttachResponse as AttachAnswer, AuthoriseAnswer, ConfirmResponse as ConfirmAnswer } from '../../protocol/runtime/payment-guards.ts';
import type { AttachResponse, ChallengePayload, ConfirmResponse } from '../../protocol/schemas/intent.ts';
import { SdkError } from '../errors.ts';
import type { CpeEventDetails } from '../events.ts';
import { sessionHeaders } from '../transport/session.ts';
import { postJson, scrub, type Backend } from '../transport/transport.ts';
import type { AttachOptions, AuthOptions, AuthoriseResult, ChallengeOutcome, ConfirmOptions } from './options.ts';

const STEPS = {
  attach: [AttachAnswer, 'an attach answer'],
  confirm: [ConfirmAnswer, 'a confirm answer'],
} as const;

/**
 * Attach or confirm through the configured transport (spec, transport rules 1, 2 and 5): the
 * merchant route `middleware[step]` when set, with only the idempotency key; otherwise the service's
 * session-backed `/intent/{step}` with the public key and the session token. The answer is checked.
 */
export async function intentStep<S extends 'attach' | 'confirm'>(controller: Backend, step: S, body: object, key: string): Promise<S extends 'attach' ? AttachResponse : ConfirmResponse> {
  const route = controller.middleware[step];
  const [guard, what] = STEPS[step];
  const answer = route
    ? await postJson(route, body, { [IDEMPOTENCY_HEADER]: key }, controller.fetch, undefined, guard as Guard<unknown>, what)
    : await postJson(`${controller.serviceOrigin}/intent/${step}`, body, await sessionHeaders(controller, key), controller.fetch, undefined, guard as Guard<unknown>, what);
  return answer as S extends 'attach' ? AttachResponse : ConfirmResponse;
}

/**
 * One payment attempt: one idempotency key from tokenise to authorise, the token, and how far
 * attach → confirm → authorise got (the spec's order rules). No DOM: the element runs each step
 * inside its events (`…:start`, `cpe:error`, `…:end`), and shows the 3-D Secure challenge.
 * Each step has a `check…` that throws an SdkError before anything is sent (`at` begins its
 * message: `cardElement.confirm`); a step the service refuses resolves, and `refused` hears it.
 */
export class PaymentAttempt {
  #key?: string;
  #token?: string;
  #attached?: { intentId: string; ok: boolean };
  #confirmed?: { intentId: string; status: string };

  /** The element's controller when a step runs (it may change between steps). */
  readonly #backend: () => Backend;
  /** Hears a step the service refused (the element's `cpe:error`). */
  readonly #refused: (detail: CpeEventDetails['cpe:error']) => void;

  constructor(backend: () => Backend, refused: (detail: CpeEventDetails['cpe:error']) => void) {
    this.#backend = backend;
    this.#refused = refused;
  }

  /** A new attempt (a new idempotency key and 3-D Secure transaction), with the token it attaches. */
  start(token?: string): void {
    this.#key = crypto.randomUUID();
    this.#token = token;
    this.#attached = this.#confirmed = undefined;
  }

  /** `noToken`: why there is no token (wallet B: the shopper has not approved yet). */
  checkAttach(at: string, o: AttachOptions, noToken: string): void {
    if (!o.token && !this.#token) throw new SdkError('invalid_state', `${at}: ${noToken}`);
  }

  /** Attaches the token to `intentId`; `requires_payment_method` resolves, is refused and forbids confirm. */
  async attach(o: AttachOptions, intentId: string): Promise<AttachResponse> {
    if (o.token && o.token !== this.#token) this.start(o.token);
    const body = { payment_intent_id: intentId, token: this.#token, ...(o.storeCard !== undefined && { storeCard: o.storeCard }), ...(o.billingDetails && { billing_details: o.billingDetails }) };
    const answer: AttachResponse = await intentStep(this.#backend(), 'attach', body, this.#key!);
    this.#token = undefined;
    const ok = answer.status !== 'requires_payment_method';
    this.#attached = { intentId, ok };
    if (!ok) this.#refused({ message: scrub(answer.error?.message ?? 'The card was not accepted: use another card.'), code: answer.error?.code ?? 'attach_failed', operation: 'attach' });
    return answer;
  }

  /** Throws unless an accepted attach came first; answers the endpoint `autoAuthorise` would use. */
  checkConfirm(at: string, o: ConfirmOptions): string | undefined {
    if (!this.#attached) throw new SdkError('invalid_state', `${at}: call attach() first`);
    if (!this.#attached.ok) throw new SdkError('invalid_state', `${at}: attach returned requires_payment_method: tokenise and attach another card`);
    const endpoint = o.authorise?.endpoint ?? this.#backend().middleware.authorise;
    if (o.autoAuthorise && !endpoint) throw new SdkError('invalid_options', `${at}: "autoAuthorise" needs "authorise.endpoint" or middleware.authorise`, 'authorise.endpoint');
    return endpoint;
  }

  /** Confirms; a challenge goes to `challenge` (unless `autoHandle3DS: false`) and the answer says its outcome. */
  async confirm(o: ConfirmOptions, challenge: (payload: ChallengePayload) => Promise<ChallengeOutcome>): Promise<ConfirmResponse> {
    const intentId = o.intentId ?? this.#attached!.intentId;
    let answer: ConfirmResponse = await intentStep(this.#backend(), 'confirm', { payment_intent_id: intentId }, o.idempotencyKey ?? this.#key!);
    this.#confirmed = { intentId, status: answer.status };
    if (answer.status === 'requires_customer_authentication' && answer.challenge && o.autoHandle3DS !== false) {
      const outcome = await challenge(answer.challenge);
      if (outcome) answer = { ...answer, challenge: null, status: this.#confirmed.status as ConfirmResponse['status'], three_ds: `challenge_${outcome}` };
    } else if (answer.status !== 'requires_authorisation' && answer.status !== 'requires_customer_authentication') {
      this.#refused({ message: `Cannot proceed to authorisation (${answer.status}).`, code: 'confirm_failed', operation: 'confirm' });
    }
    return answer;
  }

  /** The intent confirm confirmed (the automatic authorise's). */
  get confirmedIntent(): string | undefined {
    return this.#confirmed?.intentId;
  }

  /** A challenge closed: completed may authorise, failed may not; cancelled (undefined) changes nothing. */
  challenged(outcome: ChallengeOutcome, intentId: string): void {
    if (outcome) this.#confirmed = { intentId: this.#confirmed?.intentId ?? intentId, status: outcome === 'completed' ? 'requires_authorisation' : 'failed' };
  }

  /** `direct`: the Flows' session route (the endpoint is the service's own). Throws unless confirm reached `requires_authorisation`. */
  checkAuthorise(at: string, o: AuthOptions, direct?: boolean): void {
    const { serviceOrigin, middleware } = this.#backend();
    if (!direct && new URL(o.endpoint, location.href).origin === serviceOrigin) throw new SdkError('invalid_options', `${at}: "endpoint" must be your backend, not the service`, 'endpoint');
    if (o.verify && !middleware.verifyAuth) throw new SdkError('invalid_options', `${at}: "verify" needs middleware.verifyAuth`, 'verify');
    if (this.#confirmed?.status !== 'requires_authorisation') throw new SdkError('invalid_state', `${at}: confirm() did not return requires_authorisation`);
  }

  /**
   * POSTs `{payment_intent_id, ...payload}` to the endpoint with the attempt's idempotency key (a
   * retry is safe), then `middleware.verifyAuth` with `verify`. `authorised: false` is refused.
   */
  async authorise(o: AuthOptions, direct?: boolean): Promise<AuthoriseResult> {
    const backend = this.#backend();
    const intentId = o.intentId ?? this.#confirmed!.intentId;
    const payload = o.payload && typeof o.payload === 'object' && !Array.isArray(o.payload) ? o.payload : o.payload === undefined ? {} : { payload: o.payload };
    const key = o.idempotencyKey ?? this.#key ?? crypto.randomUUID();
    const headers = direct ? await sessionHeaders(backend, key) : { ...o.headers, [IDEMPOTENCY_HEADER]: key };
    const answer: AuthoriseResult = await postJson(o.endpoint, { payment_intent_id: intentId, ...payload }, headers, backend.fetch, o.timeoutMs, AuthoriseAnswer, 'an authorise answer');
    if (answer.authorised === false)
      this.#refused({ message: scrub(answer.error?.message ?? 'The payment was not authorised.'), code: answer.error?.code ?? 'not_authorised', operation: 'authorise' });
    if (o.verify) answer.verify = await postJson(backend.middleware.verifyAuth!, { payment_intent_id: intentId }, { [IDEMPOTENCY_HEADER]: key }, backend.fetch);
    return answer;
  }
}
