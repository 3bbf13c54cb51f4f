import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { ApiError, conflict, invalidParam, noSuch } from '../http/api-error.ts';
import { hashSecret, newId, newSecret } from '../identity/secrets.ts';
import type { Collection, RequestRef, Store } from '../store/store.ts';
import type { Events } from '../events/events.ts';
import { IntentEvents } from '../events/intent-events.ts';
import { CardVault } from './card-vault.ts';
import { validateCard, type CardSummary, type RawCard } from './cards.ts';
import { Challenges, type ChallengeView } from './challenges.ts';
import type { AttemptRow, IntentRow } from './intent-rows.ts';
import { allows, assertAllowed, nextStatus, type IntentOperation, type IntentStatus } from './intent-states.ts';
import { formatAmount } from '../../api/iso-codes.ts';
import type { Merchants } from './merchants.ts';
import { intentView, paymentMethodOf, sessionView, verifyView } from './payment-views.ts';
import type { AttachResponse, AttemptError, AuthoriseResponse, ConfirmResponse, PaymentIntent, PaymentIntentCreate, VerifyResponse } from '../../api/payments.ts';
import { ATTACH_FAILURES, AUTHENTICATION_FAILED, authorisationCode, DECLINES } from './test-processor.ts';

/** Failed card validations, attaches, challenges and declines an intent takes before it locks. */
export const MAX_FAILED_ATTEMPTS = 5;
export { TOKEN_TTL_SECONDS } from './card-vault.ts';
export { CHALLENGE_TTL_SECONDS, type ChallengeView } from './challenges.ts';

/**
 * The Payment Intent lifecycle: create, attach, confirm, the challenge's answer, authorise, capture,
 * cancel, verify. Tokens and vaulted cards (card-vault.ts), challenges (challenges.ts), the test
 * processor's answers (test-processor.ts) and what leaves the service (payment-views.ts) live
 * beside it. Every status change goes through the transition table; each method checks and mutates
 * without awaiting in between (atomic on Node's one thread); the request's commit
 * (server/http/durable-writes.ts) makes the changes durable before the answer leaves.
 */
export class PaymentsService {
  readonly #intents: Collection<IntentRow>;
  readonly #vault: CardVault;
  readonly #challenges: Challenges;
  readonly #events: IntentEvents;

  constructor(
    private readonly store: Store,
    private readonly merchants: Merchants,
    /** The service's own origin, read per call (tests learn it after listening). */
    private readonly publicUrl: () => string,
    private readonly clock: Clock,
    events: Events,
  ) {
    this.#intents = store.collection<IntentRow>('payment_intents', { session: (i) => i.session_hash, opaque: (i) => i.opaque_key });
    this.#vault = new CardVault(store, clock);
    this.#challenges = new Challenges(store, clock);
    this.#events = new IntentEvents(events);
  }

  async create(merchantId: number, input: PaymentIntentCreate) {
    if (input.merchantid !== merchantId) throw invalidParam('merchantid', `Invalid merchantid: the licence key belongs to merchant ${merchantId}.`);
    const sessionToken = newSecret('cpe_st_');
    const now = this.clock.now();
    const intent = await this.#intents.insert({
      id: newId('pi'),
      merchant_id: merchantId,
      status: 'open',
      amount: input.amount,
      currency: input.currency,
      identifier: input.identifier,
      auto_capture: input.autoCapture ?? true,
      moto: input.moto ?? false,
      purpose: input.purpose ?? 'payment',
      account_id: input.account_id ?? null,
      billTo: input.billTo ?? null,
      cardHolderAccount: input.cardHolderAccount ?? null,
      recurringIntent: (input.recurringIntent as IntentRow['recurringIntent']) ?? null,
      session_hash: hashSecret(sessionToken),
      opaque_key: newId('opq'),
      amount_authorised: null,
      amount_captured: 0,
      failed_attempts: 0,
      cancellation_reason: null,
      attempts: [],
      created_at: now,
      updated_at: now,
    });
    await this.#events.created(intent);
    return { paymentIntentId: intent.id, opaque_key: intent.opaque_key, session_token: sessionToken, status: intent.status };
  }

  async get(merchantId: number, id: string): Promise<PaymentIntent> {
    return intentView(await this.#own(merchantId, id));
  }

  /** Whether a merchant has an intent with this opaque key (a hosted frame's address names it). */
  async hasOpaqueKey(merchantId: number, opaqueKey: string): Promise<boolean> {
    return (await this.#intents.first('opaque', opaqueKey))?.merchant_id === merchantId;
  }

  /** The intent a session token was issued for. */
  bySessionToken(token: string): Promise<{ id: string; merchant_id: number } | undefined> {
    return this.#intents.first('session', hashSecret(token));
  }

  /**
   * The browser session's first request moves a new intent from open to requires_payment_method
   * (waiting for a card), so a browser payment passes through every state of the spec. True when it
   * moved. `request`: the request it runs for, when that is a read (its event names it).
   */
  async startSession(id: string, request: RequestRef | null = null): Promise<boolean> {
    // Read first without a lock: only a new intent's first request changes anything.
    if ((await this.#intents.get(id))?.status !== 'open') return false;
    return this.store.transaction(async () => {
      const intent = await this.#intents.get(id, { forUpdate: true });
      if (intent?.status !== 'open') return false;
      await this.#move(intent, nextStatus('start_session', intent.status, 'requires_payment_method'));
      return true;
    }, { request });
  }

  async sessionView(merchantId: number, id: string) {
    return sessionView(await this.#own(merchantId, id));
  }

  /**
   * Validates a card and returns a single-use token; failures count towards the lock. `wallet` marks
   * a token minted by the wallet test sheet (server/payments/wallet-routes.ts).
   */
  async tokenise(merchantId: number, intentId: string, raw: RawCard, wallet?: 'a' | 'b') {
    const intent = await this.#own(merchantId, intentId, true);
    // Tokenising is allowed exactly where attaching is, but the refusal names what was tried.
    this.#assert('attach', intent, 'tokenise a card');
    let card: CardSummary;
    try {
      card = validateCard(raw);
      if (wallet) card.wallet = wallet;
    } catch (error) {
      if (error instanceof ApiError) {
        await this.#recordFailure(intent, (locked) => (locked ? nextStatus('cancel', intent.status, 'cancelled') : intent.status));
      }
      throw error;
    }
    return this.#vault.issue(merchantId, intent.id, card);
  }

  /**
   * A server-made token (POST /v1/tokens, test mode): validated as tokenise validates, for whichever
   * of the merchant's intents attaches it first. No intent yet, so a refusal counts towards no lock;
   * the per-merchant card-testing limit counts these too.
   */
  createToken(merchantId: number, raw: RawCard) {
    return this.#vault.issue(merchantId, null, validateCard(raw));
  }

  async attach(merchantId: number, intentId: string, input: { token: string; storeCard?: boolean }): Promise<AttachResponse> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('attach', intent);
    const now = this.clock.now();
    const card = await this.#vault.cardFor(intent, input.token);
    const vault = input.storeCard === true || intent.recurringIntent !== null;
    if (input.storeCard && intent.account_id === null)
      throw invalidParam('storeCard', 'Invalid storeCard: the payment intent was created without account_id, so there is no account to store the card for.');

    // The token is spent from here on: the attempt below references it, and a server-made one is bound to this intent (see TokenRow).
    await this.#vault.bind(input.token, intent.id);
    const attempts = intent.attempts.map((a) => (['attached', 'awaiting_authentication'].includes(a.outcome) ? { ...a, outcome: 'superseded' as const } : a));
    const attempt: AttemptRow = {
      id: newId('att'),
      token: input.token,
      card,
      three_ds_transaction_id: randomUUID(),
      three_ds: 'pending',
      outcome: 'attached',
      error: null,
      authorisation_code: null,
      created_at: now,
    };
    let storedCard: AttachResponse['stored_card'] = null;
    let after: IntentRow;
    if (card.outcome === 'attach_fail' || card.outcome === 'attach_fail_retriable') {
      attempt.outcome = 'attach_failed';
      attempt.error = ATTACH_FAILURES[card.outcome];
      after = await this.#recordFailure(intent, (locked) => nextStatus('attach', intent.status, locked ? 'cancelled' : 'requires_payment_method'), [...attempts, attempt]);
    } else {
      after = await this.#move(intent, nextStatus('attach', intent.status, 'requires_customer_confirmation'), { attempts: [...attempts, attempt] });
      if (vault && intent.account_id !== null) storedCard = await this.#vault.vault(merchantId, intent.account_id, input.token, card);
    }
    return {
      paymentIntentId: intent.id,
      status: after.status,
      attempt_id: attempt.id,
      three_ds_transaction_id: attempt.three_ds_transaction_id,
      payment_method: paymentMethodOf(card),
      stored_card: storedCard,
      error: attempt.error,
    };
  }

  /** Confirm: a 3-D Secure challenge for the challenge card (never for MOTO), else frictionless. */
  async confirm(merchantId: number, intentId: string, pageOrigin: string | null): Promise<ConfirmResponse> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('confirm', intent);
    const attempt = this.#current(intent);
    let challenge: ConfirmResponse['challenge'] = null;
    let after: IntentRow;
    if (intent.moto) {
      after = await this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_authorisation'), { three_ds: 'skipped_moto', outcome: 'authenticated' });
    } else if (attempt.card.outcome === 'challenge') {
      const secret = await this.#challenges.open({
        transaction_id: attempt.three_ds_transaction_id,
        intent_id: intent.id,
        attempt_id: attempt.id,
        merchant_id: merchantId,
        origin: pageOrigin,
      });
      after = await this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_customer_authentication'), {
        three_ds: 'challenge_pending',
        outcome: 'awaiting_authentication',
      });
      challenge = { url: `${this.publicUrl()}/frames/challenge?challenge=${encodeURIComponent(secret)}`, transaction_id: attempt.three_ds_transaction_id };
    } else {
      after = await this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_authorisation'), { three_ds: 'frictionless', outcome: 'authenticated' });
    }
    return {
      paymentIntentId: intent.id,
      status: after.status,
      three_ds_transaction_id: attempt.three_ds_transaction_id,
      three_ds: this.#current(after).three_ds,
      challenge,
    };
  }

  /** What the challenge page shows; undefined for an unknown or expired secret. */
  async challengeView(secret: string): Promise<ChallengeView | undefined> {
    const challenge = await this.#challenges.find(secret);
    if (!challenge) return undefined;
    const intent = (await this.#intents.get(challenge.intent_id))!;
    const merchant = await this.merchants.get(challenge.merchant_id);
    return {
      transactionId: challenge.transaction_id,
      status: challenge.status,
      amount: formatAmount(intent.amount, intent.currency),
      value: { amount: intent.amount, currency: intent.currency },
      merchantName: merchant?.name ?? 'the merchant',
      origins: challenge.origin ? [challenge.origin] : (merchant?.origins ?? []),
      formToken: challenge.form_token ?? '',
    };
  }

  /** The shopper's answer to a challenge: complete → requires_authorisation; fail → failed. */
  answerChallenge(secret: string, outcome: 'complete' | 'fail'): Promise<ChallengeView> {
    return this.store.transaction(() => this.#answerChallenge(secret, outcome));
  }

  async #answerChallenge(secret: string, outcome: 'complete' | 'fail'): Promise<ChallengeView> {
    const challenge = await this.#challenges.find(secret, true);
    if (!challenge) throw noSuch('challenge', '(secret)', 'challenge');
    if (challenge.status !== 'pending') throw conflict('challenge_answered', `This challenge was already answered: ${challenge.status}.`, 'challenge');
    const intent = (await this.#intents.get(challenge.intent_id, { forUpdate: true }))!;
    const attempt = intent.attempts.at(-1);
    if (attempt?.id !== challenge.attempt_id || attempt.outcome !== 'awaiting_authentication')
      throw conflict('challenge_superseded', `This challenge no longer applies: the payment intent's status is ${intent.status}.`, 'challenge');
    if (outcome === 'complete') {
      assertAllowed('complete_challenge', intent);
      await this.#updateAttempt(intent, nextStatus('complete_challenge', intent.status, 'requires_authorisation'), {
        three_ds: 'challenge_completed',
        outcome: 'authenticated',
      });
    } else {
      assertAllowed('fail_challenge', intent);
      const attempts = intent.attempts.map((a) =>
        a.id === attempt.id ? { ...a, three_ds: 'challenge_failed' as const, outcome: 'authentication_failed' as const, error: AUTHENTICATION_FAILED } : a,
      );
      await this.#recordFailure(intent, (locked) => nextStatus('fail_challenge', intent.status, locked ? 'cancelled' : 'failed'), attempts);
    }
    await this.#challenges.answered(challenge.id, outcome === 'complete' ? 'completed' : 'failed');
    return (await this.challengeView(secret))!;
  }

  async authorise(merchantId: number, intentId: string): Promise<AuthoriseResponse> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('authorise', intent);
    const attempt = this.#current(intent);
    const outcome = attempt.card.outcome;
    let error: AttemptError | null = null;
    let code: string | null = null;
    let after: IntentRow;
    if (outcome === 'decline' || outcome === 'insufficient_funds') {
      error = DECLINES[outcome];
      const attempts = intent.attempts.map((a) => (a.id === attempt.id ? { ...a, outcome: 'declined' as const, error } : a));
      after = await this.#recordFailure(intent, (locked) => nextStatus('authorise', intent.status, locked ? 'cancelled' : 'failed'), attempts);
    } else {
      code = authorisationCode();
      // A card verification (purpose verify, amount 0) is authorised without moving money: succeeded, nothing to capture.
      const verifying = intent.purpose === 'verify';
      const status = nextStatus('authorise', intent.status, intent.auto_capture || verifying ? 'succeeded' : 'requires_capture');
      after = await this.#updateAttempt(intent, status, { outcome: 'authorised', authorisation_code: code }, {
        amount_authorised: intent.amount,
        amount_captured: intent.auto_capture ? intent.amount : 0,
      });
    }
    return {
      paymentIntentId: intent.id,
      status: after.status,
      authorised: error === null,
      amount: intent.amount,
      currency: intent.currency,
      captured: after.status === 'succeeded' && intent.purpose !== 'verify',
      authorisation_code: code,
      error,
    };
  }

  /** Captures once, the whole authorised amount or less. */
  async capture(merchantId: number, intentId: string, amount: number | undefined): Promise<PaymentIntent> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('capture', intent);
    const authorised = intent.amount_authorised ?? 0;
    const toCapture = amount ?? authorised;
    if (toCapture > authorised)
      throw invalidParam('amount', `Invalid amount: at most the authorised ${authorised} can be captured.`, 'amount_too_large');
    return intentView(await this.#move(intent, nextStatus('capture', intent.status, 'succeeded'), { amount_captured: toCapture }));
  }

  async cancel(merchantId: number, intentId: string): Promise<PaymentIntent> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('cancel', intent);
    const attempts = intent.attempts.map((a) =>
      ['attached', 'awaiting_authentication', 'authenticated'].includes(a.outcome) ? { ...a, outcome: 'cancelled' as const } : a,
    );
    return intentView(await this.#move(intent, nextStatus('cancel', intent.status, 'cancelled'), { attempts, cancellation_reason: 'requested' }));
  }

  /** `success` only when funds are authorised; personal fields redacted unless unmasked. */
  async verify(merchantId: number, intentId: string, unmask: readonly string[]): Promise<VerifyResponse> {
    return verifyView(await this.#own(merchantId, intentId), unmask);
  }

  // Internals

  /** Another merchant's intent answers exactly as an absent one. `forUpdate`: the caller may move it (see Collection.get). */
  async #own(merchantId: number, id: string, forUpdate = false): Promise<IntentRow> {
    const intent = await this.#intents.get(id, { forUpdate });
    if (!intent || intent.merchant_id !== merchantId) throw noSuch('payment intent', id, 'payment_intent_id');
    return intent;
  }

  /** The lock has its own message; otherwise the transition table decides. `tried` names the request when it is not `operation` itself. */
  #assert(operation: IntentOperation, intent: IntentRow, tried?: string): void {
    if (intent.cancellation_reason === 'too_many_failed_attempts')
      throw conflict(
        'payment_intent_locked',
        `Payment intent ${intent.id} is locked (status cancelled) after ${MAX_FAILED_ATTEMPTS} failed card attempts: create a new payment intent.`,
        'payment_intent_id',
      );
    if (tried !== undefined && !allows(operation, intent.status))
      throw conflict('payment_intent_unexpected_state', `You cannot ${tried} for payment intent ${intent.id}: its status is ${intent.status}.`, 'payment_intent_id');
    assertAllowed(operation, intent);
  }

  #current(intent: IntentRow): AttemptRow {
    const attempt = intent.attempts.at(-1);
    if (!attempt) throw new Error(`Payment intent ${intent.id} in ${intent.status} has no attempt.`);
    return attempt;
  }

  /** The one write of an intent's changes, and so of its event (in the same transaction). */
  async #move(intent: IntentRow, status: IntentStatus, patch: Partial<IntentRow> = {}): Promise<IntentRow> {
    const after = await this.#intents.update(intent.id, { ...patch, status, updated_at: this.clock.now() });
    await this.#events.changed(intent, after);
    return after;
  }

  #updateAttempt(intent: IntentRow, status: IntentStatus, attemptPatch: Partial<AttemptRow>, patch: Partial<IntentRow> = {}): Promise<IntentRow> {
    const last = intent.attempts.length - 1;
    const attempts = intent.attempts.map((a, i) => (i === last ? { ...a, ...attemptPatch } : a));
    return this.#move(intent, status, { ...patch, attempts });
  }

  /** Counts a failure; the one that reaches the limit locks the intent (cancelled). */
  #recordFailure(intent: IntentRow, statusAfter: (locked: boolean) => IntentStatus, attempts = intent.attempts): Promise<IntentRow> {
    const failed = intent.failed_attempts + 1;
    const locked = failed >= MAX_FAILED_ATTEMPTS;
    return this.#move(intent, statusAfter(locked), {
      attempts,
      failed_attempts: failed,
      ...(locked ? { cancellation_reason: 'too_many_failed_attempts' as const } : {}),
    });
  }

  /** Drops card tokens and challenges (answered or not) an hour past their expiry; see services.ts. */
  async prune(): Promise<{ tokens: number; challenges: number }> {
    return { tokens: await this.#vault.prune(), challenges: await this.#challenges.prune() };
  }
}
