import { randomUUID } from 'node:crypto';
import type { WalletId } from '../../protocol/wallets/index.ts';
import type { Clock } from '../clock.ts';
import { ApiError, invalidParam, noSuch } from '../http/api-error.ts';
import { hashSecret, newId, newSecret } from '../identity/secrets.ts';
import { listPage } from '../http/list-page.ts';
import type { Collection, RequestRef, RowFilter, Store } from '../store/store.ts';
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
import type { Processor } from './processor.ts';
import { refundView, Refunds } from './refunds.ts';
import { testProcessor } from './test-processor.ts';
import { METADATA_LIMITS, mergeMetadata } from '../../api/metadata.ts';
import { createdBounds } from '../../api/form-values.ts';
import type {
  AttachResponse,
  AttemptError,
  AuthoriseResponse,
  BillingDetails,
  ConfirmResponse,
  PaymentIntent,
  PaymentIntentCreate,
  PaymentIntentListQuery,
  PaymentIntentUpdate,
  VerifyResponse,
} from '../../api/payments.ts';
import type { Refund, RefundCreate, RefundListQuery } from '../../api/refunds.ts';

/** Failed card validations, attaches, challenges and declines an intent takes before it locks. */
export const MAX_FAILED_ATTEMPTS = 5;
export { TOKEN_TTL_SECONDS } from './card-vault.ts';
export { CHALLENGE_TTL_SECONDS, type ChallengeView } from './challenges.ts';

/** An intent's key in the list of one metadata pair of its merchant (JSON: no key or value can run into the next). */
const metadataPair = (merchantId: number, key: string, value: string) => JSON.stringify([merchantId, key, value]);

/**
 * The Payment Intent lifecycle: create, update, list, attach, confirm, the challenge's answer,
 * authorise, capture, cancel, verify, and refunds. Tokens and vaulted cards (card-vault.ts),
 * challenges (challenges.ts), refund records (refunds.ts) and what leaves the service
 * (payment-views.ts) live beside it; the processor (processor.ts; the test processor, test-processor.ts,
 * and its cards, test-cards.ts) says what each card does, so nothing here branches on a card. Every status
 * change goes through the transition table and every intent change through `#move` (the one write
 * point); a change that checks then writes reads the intent `forUpdate` (a row lock on PostgreSQL;
 * one write transaction at a time on the embedded store), so it holds across processes; the
 * request's commit (server/http/durable-writes.ts) makes the changes durable before the answer leaves.
 */
export class PaymentsService {
  readonly #intents: Collection<IntentRow>;
  readonly #vault: CardVault;
  readonly #challenges: Challenges;
  readonly #refunds: Refunds;
  readonly #events: IntentEvents;

  constructor(
    private readonly store: Store,
    private readonly merchants: Merchants,
    /** The service's own origin, read per call (tests learn it after listening). */
    private readonly publicUrl: () => string,
    private readonly clock: Clock,
    events: Events,
    private readonly processor: Processor = testProcessor,
  ) {
    this.#intents = store.collection<IntentRow>('payment_intents', {
      session: (i) => i.session_hash,
      opaque: (i) => i.opaque_key,
      merchant: (i) => String(i.merchant_id),
      status: (i) => `${i.merchant_id}:${i.status}`,
      // One list per metadata pair (the embedded engine's; PostgreSQL's GIN index on metadata serves the same filter).
      metadata: (i) => Object.entries(i.metadata ?? {}).map(([key, value]) => metadataPair(i.merchant_id, key, value)),
    });
    this.#vault = new CardVault(store, clock);
    this.#challenges = new Challenges(store, clock);
    this.#refunds = new Refunds(store, clock, events);
    this.#events = new IntentEvents(events);
  }

  async create(merchantId: number, input: PaymentIntentCreate) {
    // The licence key names the merchant; a merchantid given as well must agree with it.
    if (input.merchantid !== undefined && input.merchantid !== merchantId)
      throw invalidParam('merchantid', `Invalid merchantid: the licence key belongs to merchant ${merchantId}, not ${input.merchantid} (leave merchantid out: the key names the merchant).`);
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
      amount_refunded: 0,
      failed_attempts: 0,
      cancellation_reason: null,
      metadata: mergeMetadata({}, input.metadata),
      description: input.description || null,
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

  /** Metadata (merged: "" removes a key, metadata="" all) and description, in any status, as the Stripe API. */
  async update(merchantId: number, id: string, input: PaymentIntentUpdate): Promise<PaymentIntent> {
    const intent = await this.#own(merchantId, id, true, 'id');
    const metadata = mergeMetadata(intent.metadata ?? {}, input.metadata);
    if (Object.keys(metadata).length > METADATA_LIMITS.keys)
      throw invalidParam('metadata', `Invalid metadata: at most ${METADATA_LIMITS.keys} keys; this update would make ${Object.keys(metadata).length}.`);
    const patch: Partial<IntentRow> = { metadata };
    if (input.description !== undefined) patch.description = input.description;
    return intentView(await this.#move(intent, intent.status, patch));
  }

  /**
   * The merchant's intents, newest first. One status reads that status's own list; several are the
   * union of theirs (`among`); the other filters are conditions on the merchant's list, which each
   * engine evaluates on its indexes.
   */
  async list(merchantId: number, query: PaymentIntentListQuery, search: { identifier?: string } = {}) {
    const merchant = { index: 'merchant', key: String(merchantId) };
    const filter: RowFilter = {};
    const statuses = query.status ? [...new Set(query.status)] : undefined;
    if (statuses && statuses.length > 1) {
      filter.oneOf = { status: statuses };
      filter.among = statuses.map((status) => ({ index: 'status', key: `${merchantId}:${status}` }));
    }
    if (query.metadata) {
      filter.holds = { metadata: query.metadata };
      filter.within = Object.entries(query.metadata).map(([key, value]) => ({ index: 'metadata', key: metadataPair(merchantId, key, value) }));
    }
    // The dashboard's search by the merchant's own reference (not a filter of the public list).
    if (search.identifier !== undefined) filter.oneOf = { ...filter.oneOf, identifier: [search.identifier] };
    const conditions = Object.keys(filter).length ? filter : undefined;
    const created = createdBounds(query.created);
    const range = created && { field: 'created_at', grows: true, ...created };
    const { data, hasMore } =
      statuses?.length === 1
        ? await listPage(this.#intents, 'pi', 'status', `${merchantId}:${statuses[0]}`, query, merchant, conditions, range)
        : await listPage(this.#intents, 'pi', merchant.index, merchant.key, query, undefined, conditions, range);
    return { object: 'list' as const, url: '/v1/payment_intents', has_more: hasMore, data: data.map(intentView) };
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
  async tokenise(merchantId: number, intentId: string, raw: RawCard, wallet?: WalletId) {
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

  async attach(merchantId: number, intentId: string, input: { token: string; storeCard?: boolean; billing_details?: BillingDetails }): Promise<AttachResponse> {
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
      // Who pays with this card, when the page said (verify shows it in place of the intent's billTo).
      card: input.billing_details ? { ...card, billing_details: input.billing_details } : card,
      three_ds_transaction_id: randomUUID(),
      three_ds: 'pending',
      outcome: 'attached',
      error: null,
      authorisation_code: null,
      created_at: now,
    };
    let storedCard: AttachResponse['stored_card'] = null;
    let after: IntentRow;
    const refused = this.processor.attach(card);
    if (refused) {
      attempt.outcome = 'attach_failed';
      attempt.error = refused;
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
    } else if (this.processor.authenticate(attempt.card) === 'challenge') {
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
    if (challenge.status !== 'pending') throw new ApiError('challenge_answered', `This challenge was already answered: ${challenge.status}.`, 'challenge');
    const intent = (await this.#intents.get(challenge.intent_id, { forUpdate: true }))!;
    const attempt = intent.attempts.at(-1);
    if (attempt?.id !== challenge.attempt_id || attempt.outcome !== 'awaiting_authentication')
      throw new ApiError('challenge_superseded', `This challenge no longer applies: the payment intent's status is ${intent.status}.`, 'challenge');
    if (outcome === 'complete') {
      assertAllowed('complete_challenge', intent);
      await this.#updateAttempt(intent, nextStatus('complete_challenge', intent.status, 'requires_authorisation'), {
        three_ds: 'challenge_completed',
        outcome: 'authenticated',
      });
    } else {
      assertAllowed('fail_challenge', intent);
      const attempts = intent.attempts.map((a) =>
        a.id === attempt.id ? { ...a, three_ds: 'challenge_failed' as const, outcome: 'authentication_failed' as const, error: this.processor.authenticationFailed } : a,
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
    const answer = this.processor.authorise(attempt.card, intent.amount);
    let error: AttemptError | null = null;
    let code: string | null = null;
    let after: IntentRow;
    if (!answer.approved) {
      error = answer.error;
      const attempts = intent.attempts.map((a) => (a.id === attempt.id ? { ...a, outcome: 'declined' as const, error } : a));
      after = await this.#recordFailure(intent, (locked) => nextStatus('authorise', intent.status, locked ? 'cancelled' : 'failed'), attempts);
    } else {
      code = answer.authorisationCode;
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
    this.processor.capture(this.#paidCard(intent), toCapture);
    return intentView(await this.#move(intent, nextStatus('capture', intent.status, 'succeeded'), { amount_captured: toCapture }));
  }

  /** `reason`: duplicate, fraudulent, requested_by_customer or abandoned; none is null, as the Stripe API. */
  async cancel(merchantId: number, intentId: string, reason: IntentRow['cancellation_reason'] = null): Promise<PaymentIntent> {
    const intent = await this.#own(merchantId, intentId, true);
    this.#assert('cancel', intent);
    if (intent.status === 'requires_capture') this.processor.void(this.#paidCard(intent));
    const attempts = intent.attempts.map((a) =>
      ['attached', 'awaiting_authentication', 'authenticated'].includes(a.outcome) ? { ...a, outcome: 'cancelled' as const } : a,
    );
    return intentView(await this.#move(intent, nextStatus('cancel', intent.status, 'cancelled'), { attempts, cancellation_reason: reason }));
  }

  /**
   * Refunds captured money of a succeeded intent: `amount` (default: all that remains). The refunds
   * of an intent (succeeded and pending) never add up to more than it captured: the intent is read
   * for update, so concurrent refunds, in any number of processes, are checked one after another.
   */
  async refund(merchantId: number, input: RefundCreate): Promise<Refund> {
    const intent = await this.#own(merchantId, input.payment_intent, true, 'payment_intent');
    this.#assert('refund', intent, undefined, 'payment_intent');
    const refunded = intent.amount_refunded ?? 0;
    const remaining = intent.amount_captured - refunded;
    const money = (amount: number) => `${formatAmount(amount, intent.currency)} (${amount})`;
    if (input.amount === undefined && remaining === 0)
      throw invalidParam('payment_intent', `Payment intent ${intent.id} has nothing left to refund: ${money(refunded)} of the ${money(intent.amount_captured)} captured is refunded.`, 'charge_already_refunded');
    const amount = input.amount ?? remaining;
    if (amount > remaining)
      throw invalidParam('amount', `Refund amount ${money(amount)} is greater than what remains refundable of payment intent ${intent.id}: ${money(remaining)}.`, 'amount_too_large');
    const answer = this.processor.refund(this.#paidCard(intent), amount);
    const refund = await this.#refunds.create(
      { merchant_id: merchantId, payment_intent: intent.id, amount, currency: intent.currency, reason: input.reason ?? null, metadata: mergeMetadata({}, input.metadata) },
      answer.status,
      answer.status === 'pending' ? this.clock.now() + answer.settlesIn : null,
    );
    await this.#move(intent, nextStatus('refund', intent.status, 'succeeded'), { amount_refunded: refunded + amount });
    return refundView(refund);
  }

  async getRefund(merchantId: number, id: string): Promise<Refund> {
    return refundView(await this.#refunds.own(merchantId, id));
  }

  async listRefunds(merchantId: number, query: RefundListQuery) {
    // Another merchant's intent answers as an absent one.
    if (query.payment_intent !== undefined) await this.#own(merchantId, query.payment_intent, false, 'payment_intent');
    return this.#refunds.list(merchantId, query);
  }

  /**
   * Asks the processor for the outcome of each pending refund due by now (the settlement job calls
   * this; refund-settlement.ts). A failed refund gives its amount back to the intent's refundable
   * money. Each in a transaction of its own, the intent and the refund read for update: however many
   * processes run the job, a refund settles once. Returns how many settled.
   */
  async settleDueRefunds(): Promise<number> {
    let settled = 0;
    for (const due of await this.#refunds.due(this.clock.now())) {
      const done = await this.store.transaction(async () => {
        const intent = (await this.#intents.get(due.payment_intent, { forUpdate: true }))!;
        const refund = await this.#refunds.own(due.merchant_id, due.id, true);
        if (refund.status !== 'pending' || refund.settles_at === null || refund.settles_at > this.clock.now()) return false;
        const outcome = this.processor.settleRefund(this.#paidCard(intent), refund.amount);
        await this.#refunds.settle(refund, outcome);
        if (outcome.status === 'failed')
          await this.#move(intent, nextStatus('refund', intent.status, 'succeeded'), { amount_refunded: (intent.amount_refunded ?? 0) - refund.amount });
        return true;
      });
      if (done) settled++;
    }
    return settled;
  }

  /** `success` only when funds are authorised; personal fields redacted unless unmasked. */
  async verify(merchantId: number, intentId: string, unmask: readonly string[]): Promise<VerifyResponse> {
    return verifyView(await this.#own(merchantId, intentId), unmask);
  }

  // Internals

  /**
   * Another merchant's intent answers exactly as an absent one. `forUpdate`: the caller may move it
   * (see Collection.get). `param`: the field of the request that named it.
   */
  async #own(merchantId: number, id: string, forUpdate = false, param = 'payment_intent_id'): Promise<IntentRow> {
    const intent = await this.#intents.get(id, { forUpdate });
    if (!intent || intent.merchant_id !== merchantId) throw noSuch('payment intent', id, param);
    return intent;
  }

  /** The lock has its own message; otherwise the transition table decides. `tried` names the request when it is not `operation` itself. */
  #assert(operation: IntentOperation, intent: IntentRow, tried?: string, param = 'payment_intent_id'): void {
    if (intent.cancellation_reason === 'too_many_failed_attempts')
      throw new ApiError(
        'payment_intent_locked',
        `Payment intent ${intent.id} is locked (status cancelled) after ${MAX_FAILED_ATTEMPTS} failed card attempts: create a new payment intent.`,
        param,
      );
    if (tried !== undefined && !allows(operation, intent.status))
      throw new ApiError('payment_intent_unexpected_state', `You cannot ${tried} for payment intent ${intent.id}: its status is ${intent.status}.`, param);
    assertAllowed(operation, intent, param);
  }

  /** The card whose authorisation the intent's money rests on (its authorised attempt's). */
  #paidCard(intent: IntentRow): CardSummary {
    const attempt = intent.attempts.findLast((a) => a.outcome === 'authorised');
    if (!attempt) throw new Error(`Payment intent ${intent.id} in ${intent.status} has no authorised attempt.`);
    return attempt.card;
  }

  #current(intent: IntentRow): AttemptRow {
    const attempt = intent.attempts.at(-1);
    if (!attempt) throw new Error(`Payment intent ${intent.id} in ${intent.status} has no attempt.`);
    return attempt;
  }

  /** THE write point of an intent: every change (a status move, money, metadata) goes through here, and so does its event (in the same transaction). */
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
