import type { AttachResponse, ChallengePayload, ConfirmResponse } from '../../protocol/intent.ts';
import { SdkError } from '../errors.ts';
import type { CpeEventDetails } from '../events.ts';
import { scrub } from '../transport/transport.ts';
import type { AttachOptions, AuthOptions, AuthoriseResult, ChallengeOutcome, ConfirmOptions } from './options.ts';

/** What an attempt needs from its element: its name, the backend's routes, the network and `cpe:error`. No DOM. */
export interface AttemptHost {
  /** What messages call the element: `cardElement`. */
  readonly apiName: string;
  /** Attach's refusal when there is no token. */
  readonly noToken: string;
  /** The service's origin, and the page's address that relative endpoints resolve against. */
  readonly serviceOrigin: string;
  readonly pageUrl: string;
  /** `middleware.verifyAuth`, when set. */
  readonly verifyRoute?: string;
  /** The session (created, or exchanged, at the shopper's commit). */
  commit(): Promise<{ paymentIntentId: string }>;
  /** Attach or confirm through the configured transport (transport.ts `intentStep`). */
  step(step: 'attach' | 'confirm', body: object, key: string): Promise<any>;
  /** POSTs JSON (transport.ts `postJson`). */
  post(url: string, body: unknown, headers: Record<string, string>, timeoutMs?: number): Promise<any>;
  /** The session-backed routes' headers with `key` (transport.ts `sessionHeaders`). */
  sessionHeaders(key: string): Promise<Record<string, string>>;
  /** A step the service refused: `cpe:error` without failing the operation. */
  refused(detail: CpeEventDetails['cpe:error']): void;
}

/**
 * One payment attempt: one idempotency key from tokenise to authorise, the token, and how far
 * attach → confirm → authorise got (the spec's order rules). No DOM: the element runs each step
 * inside its events (`…:start`, `cpe:error`, `…:end`); the 3-D Secure challenge is its own part.
 * Each step has a `check…` (throws an SdkError before anything is sent) and the step itself.
 */
export class PaymentAttempt {
  #key?: string;
  #token?: string;
  #attached?: { intentId: string; ok: boolean };
  #confirmed?: { intentId: string; status: string };

  constructor(readonly host: AttemptHost) {}

  /** A new attempt (a new idempotency key and 3-D Secure transaction), with the token it attaches. */
  start(token?: string): void {
    this.#key = crypto.randomUUID();
    this.#token = token;
    this.#attached = this.#confirmed = undefined;
  }

  checkAttach(o: AttachOptions): void {
    if (!o.token && !this.#token) throw new SdkError('invalid_state', `${this.host.apiName}.attach: ${this.host.noToken}`);
  }

  /** Attaches the token; `requires_payment_method` resolves but is refused (`cpe:error`) and forbids confirm. */
  async attach(o: AttachOptions): Promise<AttachResponse> {
    const host = this.host;
    if (o.token && o.token !== this.#token) this.start(o.token);
    const token = this.#token!;
    const intentId = o.intentId ?? (await host.commit()).paymentIntentId;
    const body = { payment_intent_id: intentId, token, ...(o.storeCard !== undefined && { storeCard: o.storeCard }) };
    const answer: AttachResponse = await host.step('attach', body, this.#key!);
    this.#token = undefined;
    const ok = answer.status !== 'requires_payment_method';
    this.#attached = { intentId, ok };
    if (!ok)
      host.refused({ message: scrub(answer.error?.message ?? 'The card was not accepted: use another card.'), code: answer.error?.code ?? 'attach_failed', operation: 'attach' });
    return answer;
  }

  /** Throws unless an accepted attach came first; answers the endpoint `autoAuthorise` would use. */
  checkConfirm(o: ConfirmOptions, authoriseRoute?: string): string | undefined {
    const at = `${this.host.apiName}.confirm`;
    if (!this.#attached) throw new SdkError('invalid_state', `${at}: call attach() first`);
    if (!this.#attached.ok) throw new SdkError('invalid_state', `${at}: attach returned requires_payment_method: tokenise and attach another card`);
    const endpoint = o.authorise?.endpoint ?? authoriseRoute;
    if (o.autoAuthorise && !endpoint) throw new SdkError('invalid_options', `${at}: "autoAuthorise" needs "authorise.endpoint" or middleware.authorise`, 'authorise.endpoint');
    return endpoint;
  }

  /** Confirms; a challenge goes to `challenge` (unless `autoHandle3DS: false`) and the answer says its outcome. */
  async confirm(o: ConfirmOptions, challenge: (payload: ChallengePayload) => Promise<ChallengeOutcome>): Promise<ConfirmResponse> {
    const intentId = o.intentId ?? this.#attached!.intentId;
    let answer: ConfirmResponse = await this.host.step('confirm', { payment_intent_id: intentId }, o.idempotencyKey ?? this.#key!);
    this.#confirmed = { intentId, status: answer.status };
    if (answer.status === 'requires_customer_authentication' && answer.challenge && o.autoHandle3DS !== false) {
      const outcome = await challenge(answer.challenge);
      if (outcome) answer = { ...answer, challenge: null, status: this.#confirmed.status as ConfirmResponse['status'], three_ds: `challenge_${outcome}` };
    } else if (answer.status !== 'requires_authorisation' && answer.status !== 'requires_customer_authentication') {
      this.host.refused({ message: `Cannot proceed to authorisation (${answer.status}).`, code: 'confirm_failed', operation: 'confirm' });
    }
    return answer;
  }

  /** The intent confirm confirmed (for the automatic authorise). */
  get confirmedIntent(): string | undefined {
    return this.#confirmed?.intentId;
  }

  /** A challenge closed: completed may authorise, failed may not; cancelled (undefined) changes nothing. */
  challenged(outcome: ChallengeOutcome, intentId: string): void {
    if (outcome) this.#confirmed = { intentId: this.#confirmed?.intentId ?? intentId, status: outcome === 'completed' ? 'requires_authorisation' : 'failed' };
  }

  /** `direct`: the Flows' session route (the endpoint is the service's own). Throws unless confirm reached `requires_authorisation`. */
  checkAuthorise(o: AuthOptions, direct?: boolean): void {
    const { apiName, serviceOrigin, pageUrl, verifyRoute } = this.host;
    const at = `${apiName}.authoriseViaBackend`;
    if (!direct && new URL(o.endpoint, pageUrl).origin === serviceOrigin)
      throw new SdkError('invalid_options', `${at}: "endpoint" must be your backend, not the service`, 'endpoint');
    if (o.verify && !verifyRoute) throw new SdkError('invalid_options', `${at}: "verify" needs middleware.verifyAuth`, 'verify');
    if (this.#confirmed?.status !== 'requires_authorisation') throw new SdkError('invalid_state', `${at}: confirm() did not return requires_authorisation`);
  }

  /**
   * POSTs `{payment_intent_id, ...payload}` to the endpoint with the attempt's idempotency key (a
   * retry is safe), then `middleware.verifyAuth` with `verify`. `authorised: false` is refused.
   */
  async authorise(o: AuthOptions, direct?: boolean): Promise<AuthoriseResult> {
    const host = this.host;
    const intentId = o.intentId ?? this.#confirmed!.intentId;
    const payload = o.payload && typeof o.payload === 'object' && !Array.isArray(o.payload) ? o.payload : o.payload === undefined ? {} : { payload: o.payload };
    const key = o.idempotencyKey ?? this.#key ?? crypto.randomUUID();
    const headers = direct ? await host.sessionHeaders(key) : { ...o.headers, 'X-Idempotency-Key': key };
    const answer: AuthoriseResult = await host.post(o.endpoint, { payment_intent_id: intentId, ...payload }, headers, o.timeoutMs);
    if (answer.authorised === false)
      host.refused({ message: scrub(answer.error?.message ?? 'The payment was not authorised.'), code: answer.error?.code ?? 'not_authorised', operation: 'authorise' });
    if (o.verify) answer.verify = await host.post(host.verifyRoute!, { payment_intent_id: intentId }, { 'X-Idempotency-Key': key });
    return answer;
  }
}
