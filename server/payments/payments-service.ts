import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError, conflict, invalidParam, noSuch } from '../http/api-error.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, newId, newSecret } from '../identity/secrets.ts';
import { expiryIndex, pruneExpired } from '../store/expiry.ts';
import type { Collection, Store } from '../store/store.ts';
import { isExpired, maskedPan, validateCard, type CardSummary, type RawCard } from './cards.ts';
import { allows, assertAllowed, nextStatus, type IntentOperation, type IntentStatus } from './intent-states.ts';
import { formatAmount } from './iso-codes.ts';
import type { Merchants } from './merchants.ts';
import {
  REDACTED,
  type AttachResponse,
  type Attempt,
  type AttemptError,
  type AuthDetails,
  type AuthoriseResponse,
  type BillTo,
  type ConfirmResponse,
  type IntentPurpose,
  type PaymentIntent,
  type PaymentIntentCreate,
  type VerifyResponse,
} from './schemas.ts';

/** Failed card validations, attaches, challenges and declines an intent takes before it locks. */
export const MAX_FAILED_ATTEMPTS = 5;
export const TOKEN_TTL_SECONDS = 15 * 60;
export const CHALLENGE_TTL_SECONDS = 15 * 60;
/** How long an expired token or challenge is kept before pruning, so it is refused as expired. */
export const EXPIRED_KEPT_SECONDS = 60 * 60;

type AttemptRow = Omit<Attempt, 'payment_method'> & { card: CardSummary };

interface IntentRow {
  id: string;
  merchant_id: number;
  status: IntentStatus;
  amount: number;
  currency: string;
  identifier: string;
  auto_capture: boolean;
  moto: boolean;
  /** Absent on rows written before card verification intents existed: a payment. */
  purpose?: IntentPurpose;
  account_id: string | null;
  billTo: BillTo | null;
  cardHolderAccount: Record<string, string> | null;
  recurringIntent: Record<string, string | number> | null;
  /** Hash of the session token: the token itself is shown once, at create. */
  session_hash: string;
  opaque_key: string;
  amount_authorised: number | null;
  amount_captured: number;
  failed_attempts: number;
  cancellation_reason: 'requested' | 'too_many_failed_attempts' | null;
  attempts: AttemptRow[];
  created_at: number;
  updated_at: number;
}

/**
 * A single-use card token: a card summary (never the PAN or CSC) bound to one intent. It is spent
 * once an attempt of its intent references it (attach always records one), so no row changes when a
 * token is used: the table only grows, and a write appends the new token's text.
 */
interface TokenRow {
  id: string;
  merchant_id: number;
  intent_id: string;
  card: CardSummary;
  created_at: number;
  expires_at: number;
}

/** A vaulted card of a merchant's account: reusable, still no raw data. */
interface StoredCardRow {
  id: string;
  merchant_id: number;
  account_id: string;
  card: CardSummary;
  created_at: number;
}

/** A pending 3-D Secure challenge, found by the hash of the secret in its page's URL. */
interface ChallengeRow {
  id: string;
  transaction_id: string;
  intent_id: string;
  attempt_id: string;
  merchant_id: number;
  /** The merchant page origin that confirmed (direct mode), where the outcome is posted. */
  origin: string | null;
  status: 'pending' | 'completed' | 'failed';
  created_at: number;
  expires_at: number;
}

export interface ChallengeView {
  transactionId: string;
  status: ChallengeRow['status'];
  amount: string;
  merchantName: string;
  /** Origins that may frame the page and receive the outcome message. */
  origins: string[];
}

const attemptError = (code: string, message: string, retriable: boolean): AttemptError => ({ type: 'card_error', code, message, retriable });

const ATTACH_FAILURES = {
  attach_fail: attemptError('card_declined', 'The card was refused when attached: use another card.', false),
  attach_fail_retriable: attemptError('processing_error', 'The card could not be attached just now: try again.', true),
} as const;

const DECLINES = {
  decline: attemptError('card_declined', 'The card was declined.', false),
  insufficient_funds: attemptError('insufficient_funds', 'The card has insufficient funds.', false),
} as const;

/** An authorisation code as acquirers print them: six upper-case letters and digits. */
const authorisationCode = () => randomBytes(6).toString('base64url').toUpperCase().replace(/[^A-Z0-9]/g, '7').slice(0, 6);

const paymentMethodOf = (card: CardSummary) => ({
  scheme: card.scheme,
  last4: card.last4,
  expiry_month: card.exp_month,
  expiry_year: card.exp_year,
  ...(card.wallet ? { wallet: card.wallet } : {}),
});

/**
 * Payment Intents and everything around them: tokens, attempts, the test processor, 3-D Secure
 * challenges and vaulted cards. Every status change goes through the transition table; each method
 * checks and mutates without awaiting in between (atomic on Node's one thread); the request's
 * commit (server/http/durable-writes.ts) makes the changes durable before the answer leaves.
 */
export class PaymentsService {
  readonly #intents: Collection<IntentRow>;
  readonly #tokens: Collection<TokenRow>;
  readonly #cards: Collection<StoredCardRow>;
  readonly #challenges: Collection<ChallengeRow>;

  constructor(
    store: Store,
    private readonly merchants: Merchants,
    /** The service's own origin, read per call (tests learn it after listening). */
    private readonly publicUrl: () => string,
    private readonly clock: Clock,
  ) {
    this.#intents = store.collection<IntentRow>('payment_intents', { session: (i) => i.session_hash, opaque: (i) => i.opaque_key });
    // Kept an hour past expiry, so an expired token or challenge is refused as expired, not unknown.
    this.#tokens = store.collection<TokenRow>('card_tokens', expiryIndex((t) => t.expires_at + EXPIRED_KEPT_SECONDS));
    this.#cards = store.collection<StoredCardRow>('stored_cards', { account: (c) => `${c.merchant_id}:${c.account_id}` });
    this.#challenges = store.collection<ChallengeRow>('three_ds_challenges', expiryIndex((c) => c.expires_at + EXPIRED_KEPT_SECONDS));
  }

  create(merchantId: number, input: PaymentIntentCreate) {
    if (input.merchantid !== merchantId) throw invalidParam('merchantid', `Invalid merchantid: the licence key belongs to merchant ${merchantId}.`);
    const sessionToken = newSecret('cpe_st_');
    const now = this.clock.now();
    const intent = this.#intents.insert({
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
    return { paymentIntentId: intent.id, opaque_key: intent.opaque_key, session_token: sessionToken, status: intent.status };
  }

  get(merchantId: number, id: string): PaymentIntent {
    return this.#view(this.#own(merchantId, id));
  }

  /** Whether a merchant has an intent with this opaque key (a hosted frame's address names it). */
  hasOpaqueKey(merchantId: number, opaqueKey: string): boolean {
    return this.#intents.first('opaque', opaqueKey)?.merchant_id === merchantId;
  }

  /** The intent a session token was issued for. */
  bySessionToken(token: string): { id: string; merchant_id: number } | undefined {
    return this.#intents.first('session', hashSecret(token));
  }

  /**
   * The browser session's first request moves a new intent from open to requires_payment_method
   * (waiting for a card), so a browser payment passes through every state of the spec. True when it
   * moved.
   */
  startSession(id: string): boolean {
    const intent = this.#intents.get(id);
    if (intent?.status !== 'open') return false;
    this.#move(intent, nextStatus('start_session', intent.status, 'requires_payment_method'));
    return true;
  }

  sessionView(merchantId: number, id: string) {
    const intent = this.#own(merchantId, id);
    return {
      paymentIntentId: intent.id,
      status: intent.status,
      amount: intent.amount,
      currency: intent.currency,
      amount_formatted: formatAmount(intent.amount, intent.currency),
      moto: intent.moto,
      opaque_key: intent.opaque_key,
      purpose: intent.purpose ?? 'payment',
    };
  }

  /**
   * Validates a card and returns a single-use token; failures count towards the lock. `wallet` marks
   * a token minted by the wallet test sheet (server/payments/wallet-routes.ts).
   */
  tokenise(merchantId: number, intentId: string, raw: RawCard, wallet?: 'a' | 'b') {
    const intent = this.#own(merchantId, intentId);
    // Tokenising is allowed exactly where attaching is, but the refusal names what was tried.
    this.#assert('attach', intent, 'tokenise a card');
    let card: CardSummary;
    try {
      card = validateCard(raw);
      if (wallet) card.wallet = wallet;
    } catch (error) {
      if (error instanceof ApiError) {
        this.#recordFailure(intent, (locked) => (locked ? nextStatus('cancel', intent.status, 'cancelled') : intent.status));
      }
      throw error;
    }
    const now = this.clock.now();
    const token = this.#tokens.insert({
      id: newId('tok'),
      merchant_id: merchantId,
      intent_id: intent.id,
      card,
      created_at: now,
      expires_at: now + TOKEN_TTL_SECONDS,
    });
    return { data: { cp_card_token: token.id, ...paymentMethodOf(card), expires_at: token.expires_at } };
  }

  attach(merchantId: number, intentId: string, input: { token: string; storeCard?: boolean }): AttachResponse {
    const intent = this.#own(merchantId, intentId);
    this.#assert('attach', intent);
    const now = this.clock.now();
    const card = this.#cardOf(intent, input.token, now);
    const vault = input.storeCard === true || intent.recurringIntent !== null;
    if (input.storeCard && intent.account_id === null)
      throw invalidParam('storeCard', 'Invalid storeCard: the payment intent was created without account_id, so there is no account to store the card for.');

    // The token is spent from here on: the attempt below references it (see TokenRow).
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
    if (card.outcome === 'attach_fail' || card.outcome === 'attach_fail_retriable') {
      attempt.outcome = 'attach_failed';
      attempt.error = ATTACH_FAILURES[card.outcome];
      this.#recordFailure(intent, (locked) => nextStatus('attach', intent.status, locked ? 'cancelled' : 'requires_payment_method'), [...attempts, attempt]);
    } else {
      this.#move(intent, nextStatus('attach', intent.status, 'requires_customer_confirmation'), { attempts: [...attempts, attempt] });
      if (vault && intent.account_id !== null) storedCard = this.#vault(merchantId, intent.account_id, input.token, card, now);
    }
    const after = this.#intents.get(intent.id)!;
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
  confirm(merchantId: number, intentId: string, pageOrigin: string | null): ConfirmResponse {
    const intent = this.#own(merchantId, intentId);
    this.#assert('confirm', intent);
    const attempt = this.#current(intent);
    const now = this.clock.now();
    let challenge: ConfirmResponse['challenge'] = null;
    if (intent.moto) {
      this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_authorisation'), { three_ds: 'skipped_moto', outcome: 'authenticated' });
    } else if (attempt.card.outcome === 'challenge') {
      const secret = newSecret('');
      this.#challenges.insert({
        id: hashSecret(secret),
        transaction_id: attempt.three_ds_transaction_id,
        intent_id: intent.id,
        attempt_id: attempt.id,
        merchant_id: merchantId,
        origin: pageOrigin,
        status: 'pending',
        created_at: now,
        expires_at: now + CHALLENGE_TTL_SECONDS,
      });
      this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_customer_authentication'), {
        three_ds: 'challenge_pending',
        outcome: 'awaiting_authentication',
      });
      challenge = { url: `${this.publicUrl()}/frames/challenge?challenge=${encodeURIComponent(secret)}`, transaction_id: attempt.three_ds_transaction_id };
    } else {
      this.#updateAttempt(intent, nextStatus('confirm', intent.status, 'requires_authorisation'), { three_ds: 'frictionless', outcome: 'authenticated' });
    }
    const after = this.#intents.get(intent.id)!;
    return {
      paymentIntentId: intent.id,
      status: after.status,
      three_ds_transaction_id: attempt.three_ds_transaction_id,
      three_ds: this.#current(after).three_ds,
      challenge,
    };
  }

  /** What the challenge page shows; undefined for an unknown or expired secret. */
  challengeView(secret: string): ChallengeView | undefined {
    const challenge = this.#challengeOf(secret);
    if (!challenge) return undefined;
    const intent = this.#intents.get(challenge.intent_id)!;
    const merchant = this.merchants.get(challenge.merchant_id);
    return {
      transactionId: challenge.transaction_id,
      status: challenge.status,
      amount: formatAmount(intent.amount, intent.currency),
      merchantName: merchant?.name ?? 'the merchant',
      origins: challenge.origin ? [challenge.origin] : (merchant?.origins ?? []),
    };
  }

  /** The shopper's answer to a challenge: complete → requires_authorisation; fail → failed. */
  answerChallenge(secret: string, outcome: 'complete' | 'fail'): ChallengeView {
    const challenge = this.#challengeOf(secret);
    if (!challenge) throw noSuch('challenge', '(secret)', 'challenge');
    if (challenge.status !== 'pending') throw conflict('challenge_answered', `This challenge was already answered: ${challenge.status}.`, 'challenge');
    const intent = this.#intents.get(challenge.intent_id)!;
    const attempt = intent.attempts.at(-1);
    if (attempt?.id !== challenge.attempt_id || attempt.outcome !== 'awaiting_authentication')
      throw conflict('challenge_superseded', `This challenge no longer applies: the payment intent's status is ${intent.status}.`, 'challenge');
    if (outcome === 'complete') {
      assertAllowed('complete_challenge', intent);
      this.#updateAttempt(intent, nextStatus('complete_challenge', intent.status, 'requires_authorisation'), {
        three_ds: 'challenge_completed',
        outcome: 'authenticated',
      });
    } else {
      assertAllowed('fail_challenge', intent);
      const error = attemptError('authentication_failed', 'The shopper failed 3-D Secure authentication.', false);
      const attempts = intent.attempts.map((a) => (a.id === attempt.id ? { ...a, three_ds: 'challenge_failed' as const, outcome: 'authentication_failed' as const, error } : a));
      this.#recordFailure(intent, (locked) => nextStatus('fail_challenge', intent.status, locked ? 'cancelled' : 'failed'), attempts);
    }
    this.#challenges.update(challenge.id, { status: outcome === 'complete' ? 'completed' : 'failed' });
    return this.challengeView(secret)!;
  }

  authorise(merchantId: number, intentId: string): AuthoriseResponse {
    const intent = this.#own(merchantId, intentId);
    this.#assert('authorise', intent);
    const attempt = this.#current(intent);
    const outcome = attempt.card.outcome;
    let error: AttemptError | null = null;
    let code: string | null = null;
    if (outcome === 'decline' || outcome === 'insufficient_funds') {
      error = DECLINES[outcome];
      const attempts = intent.attempts.map((a) => (a.id === attempt.id ? { ...a, outcome: 'declined' as const, error } : a));
      this.#recordFailure(intent, (locked) => nextStatus('authorise', intent.status, locked ? 'cancelled' : 'failed'), attempts);
    } else {
      code = authorisationCode();
      // A card verification (purpose verify, amount 0) is authorised without moving money: succeeded, nothing to capture.
      const verifying = intent.purpose === 'verify';
      const status = nextStatus('authorise', intent.status, intent.auto_capture || verifying ? 'succeeded' : 'requires_capture');
      this.#updateAttempt(intent, status, { outcome: 'authorised', authorisation_code: code }, {
        amount_authorised: intent.amount,
        amount_captured: intent.auto_capture ? intent.amount : 0,
      });
    }
    const after = this.#intents.get(intent.id)!;
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
  capture(merchantId: number, intentId: string, amount: number | undefined): PaymentIntent {
    const intent = this.#own(merchantId, intentId);
    this.#assert('capture', intent);
    const authorised = intent.amount_authorised ?? 0;
    const toCapture = amount ?? authorised;
    if (toCapture > authorised)
      throw invalidParam('amount', `Invalid amount: at most the authorised ${authorised} can be captured.`, 'amount_too_large');
    this.#move(intent, nextStatus('capture', intent.status, 'succeeded'), { amount_captured: toCapture });
    return this.#view(this.#intents.get(intent.id)!);
  }

  cancel(merchantId: number, intentId: string): PaymentIntent {
    const intent = this.#own(merchantId, intentId);
    this.#assert('cancel', intent);
    const attempts = intent.attempts.map((a) =>
      ['attached', 'awaiting_authentication', 'authenticated'].includes(a.outcome) ? { ...a, outcome: 'cancelled' as const } : a,
    );
    this.#move(intent, nextStatus('cancel', intent.status, 'cancelled'), { attempts, cancellation_reason: 'requested' });
    return this.#view(this.#intents.get(intent.id)!);
  }

  /** `success` only when funds are authorised; personal fields redacted unless unmasked. */
  verify(merchantId: number, intentId: string, unmask: readonly string[]): VerifyResponse {
    const intent = this.#own(merchantId, intentId);
    const authorised = intent.status === 'succeeded' || intent.status === 'requires_capture';
    const status: VerifyResponse['status'] = authorised ? 'success' : intent.status === 'failed' ? 'failed' : intent.status === 'cancelled' ? 'cancelled' : 'pending';
    const attempt = [...intent.attempts].reverse().find((a) => a.outcome === 'authorised');
    if (!authorised || !attempt) return { status, intent_status: intent.status, auth: null };
    const bill = intent.billTo ?? {};
    const name = [bill.title, bill.firstname, bill.lastname].filter(Boolean).join(' ') || attempt.card.name;
    const address = [bill.address1, bill.address2, bill.address3].filter(Boolean).join(', ') || null;
    const personal = { name, email: bill.email ?? null, address, postcode: bill.postcode ?? null };
    const redacted = (['name', 'email', 'address', 'postcode'] as const).filter((f) => !unmask.includes(f));
    for (const field of redacted) if (personal[field] !== null) personal[field] = REDACTED;
    const auth: AuthDetails = {
      paymentIntentId: intent.id,
      merchantid: intent.merchant_id,
      amount: intent.amount_authorised ?? intent.amount,
      amount_captured: intent.amount_captured,
      currency: intent.currency,
      identifier: intent.identifier,
      authorisation_code: attempt.authorisation_code!,
      masked_pan: maskedPan(attempt.card),
      scheme: attempt.card.scheme,
      last4: attempt.card.last4,
      expiry_month: attempt.card.exp_month,
      expiry_year: attempt.card.exp_year,
      three_ds: attempt.three_ds,
      purpose: intent.purpose ?? 'payment',
      wallet: attempt.card.wallet ?? null,
      ...personal,
      country: bill.country ?? null,
      redacted,
    };
    return { status, intent_status: intent.status, auth };
  }

  // Internals

  /** Another merchant's intent answers exactly as an absent one. */
  #own(merchantId: number, id: string): IntentRow {
    const intent = this.#intents.get(id);
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

  #move(intent: IntentRow, status: IntentStatus, patch: Partial<IntentRow> = {}): void {
    this.#intents.update(intent.id, { ...patch, status, updated_at: this.clock.now() });
  }

  #updateAttempt(intent: IntentRow, status: IntentStatus, attemptPatch: Partial<AttemptRow>, patch: Partial<IntentRow> = {}): void {
    const last = intent.attempts.length - 1;
    const attempts = intent.attempts.map((a, i) => (i === last ? { ...a, ...attemptPatch } : a));
    this.#move(intent, status, { ...patch, attempts });
  }

  /** Counts a failure; the one that reaches the limit locks the intent (cancelled). */
  #recordFailure(intent: IntentRow, statusAfter: (locked: boolean) => IntentStatus, attempts = intent.attempts): void {
    const failed = intent.failed_attempts + 1;
    const locked = failed >= MAX_FAILED_ATTEMPTS;
    this.#move(intent, statusAfter(locked), {
      attempts,
      failed_attempts: failed,
      ...(locked ? { cancellation_reason: 'too_many_failed_attempts' as const } : {}),
    });
  }

  /** The card behind a token or vaulted card reference, checked for this intent. */
  #cardOf(intent: IntentRow, reference: string, now: number): CardSummary {
    if (reference.startsWith('card_')) {
      const stored = this.#cards.get(reference);
      if (!stored || stored.merchant_id !== intent.merchant_id || stored.account_id !== intent.account_id)
        throw noSuch("stored card for this payment intent's account", reference, 'token');
      if (isExpired(stored.card)) throw new ApiError(400, 'card_error', 'expired_card', 'The stored card has expired.', 'token');
      return stored.card;
    }
    const token = this.#tokens.get(reference);
    if (!token || token.merchant_id !== intent.merchant_id || token.intent_id !== intent.id)
      throw noSuch('token for this payment intent', reference, 'token');
    if (intent.attempts.some((a) => a.token === reference)) throw invalidParam('token', 'This token was already used: tokens are single-use, tokenise the card again.', 'token_already_used');
    if (token.expires_at <= now) throw invalidParam('token', 'This token has expired: tokenise the card again.', 'token_expired');
    return token.card;
  }

  /** Keeps one stored card per account and card (same BIN, last four and expiry). */
  #vault(merchantId: number, accountId: string, reference: string, card: CardSummary, now: number) {
    let stored: StoredCardRow | undefined;
    if (reference.startsWith('card_')) stored = this.#cards.get(reference);
    stored ??= this.#cards
      .find('account', `${merchantId}:${accountId}`)
      .find((c) => c.card.first6 === card.first6 && c.card.last4 === card.last4 && c.card.exp_month === card.exp_month && c.card.exp_year === card.exp_year);
    stored ??= this.#cards.insert({ id: newId('card'), merchant_id: merchantId, account_id: accountId, card, created_at: now });
    return { id: stored.id, account_id: accountId, ...paymentMethodOf(stored.card) };
  }

  #challengeOf(secret: string): ChallengeRow | undefined {
    if (!secret) return undefined;
    const challenge = this.#challenges.get(hashSecret(secret));
    return challenge && challenge.expires_at > this.clock.now() ? challenge : undefined;
  }

  /** Drops card tokens and challenges (answered or not) an hour past their expiry; see services.ts. */
  prune(): { tokens: number; challenges: number } {
    const now = this.clock.now();
    return { tokens: pruneExpired(this.#tokens, now), challenges: pruneExpired(this.#challenges, now) };
  }

  #view(intent: IntentRow): PaymentIntent {
    return {
      id: intent.id,
      object: 'payment_intent',
      status: intent.status,
      merchantid: intent.merchant_id,
      amount: intent.amount,
      currency: intent.currency,
      identifier: intent.identifier,
      auto_capture: intent.auto_capture,
      moto: intent.moto,
      purpose: intent.purpose ?? 'payment',
      account_id: intent.account_id,
      billTo: (intent.billTo as Record<string, string> | null) ?? null,
      cardHolderAccount: intent.cardHolderAccount,
      recurringIntent: intent.recurringIntent,
      amount_authorised: intent.amount_authorised,
      amount_captured: intent.amount_captured,
      failed_attempts: intent.failed_attempts,
      cancellation_reason: intent.cancellation_reason,
      attempts: intent.attempts.map(({ card, ...a }) => ({ ...a, payment_method: paymentMethodOf(card) })),
      created_at: intent.created_at,
      updated_at: intent.updated_at,
    };
  }
}
