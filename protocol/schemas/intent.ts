import * as z from 'zod/mini';
import { SCHEME_NAMES } from '../runtime/card-schemes.ts';
import { INTENT_STATUSES } from '../runtime/intent-status.ts';
import { WALLET_IDS } from '../wallets/ids.ts';

/**
 * The Payment Intent as the browser meets it: its states, and the answers of the session-backed
 * routes (/intent, /intent/attach, /intent/confirm, /intent/authorise, /frames/tokenise), which the
 * backend routes of the same names give too. The service validates and documents with these; the SDK
 * and the frames read them.
 */
const describe = <T>(text: string) => z.describe<T>(text);
const id = (name: string) => z.meta({ id: name });

export { INTENT_STATUSES } from '../runtime/intent-status.ts';
export const IntentStatus = z.enum(INTENT_STATUSES).check(
  describe(
    'open: created, no browser session has started. requires_payment_method: waiting for a card (the browser session started, or the last attach failed). ' +
      'requires_customer_confirmation: a card is attached, confirm next. requires_customer_authentication: a 3-D Secure challenge is pending. ' +
      'requires_authorisation: ready for the backend authorise. succeeded: authorised and captured. requires_capture: authorised, capture deferred. ' +
      'failed: the last attempt was declined or failed 3-D Secure; a new attempt may attach another card. cancelled: final (cancelled, or locked after repeated failures).',
  ),
  id('PaymentIntentStatus'),
);
export type IntentStatus = z.infer<typeof IntentStatus>;

const timestamp = z.int().check(describe('Unix time in seconds'));

export const PaymentMethod = z
  .object({
    scheme: z.enum(SCHEME_NAMES),
    last4: z.string(),
    expiry_month: z.int(),
    expiry_year: z.int(),
    wallet: z.optional(z.enum(WALLET_IDS).check(describe('Set when the token came from a wallet (the wallet test sheet): which wallet'))),
  })
  .check(id('PaymentMethod'));

/** What an intent is for: a payment, or a card verification (amount 0, authorised without moving money). */
export const IntentPurpose = z
  .enum(['payment', 'verify'])
  .check(describe('payment: take the amount. verify: check the card (amount 0): confirm and 3-D Secure as usual, authorise moves no money, nothing to capture.'));
export type IntentPurpose = z.infer<typeof IntentPurpose>;

export const AttemptError = z
  .object({
    type: z.literal('card_error'),
    code: z.string().check(describe('card_declined, insufficient_funds, processing_error, authentication_failed')),
    message: z.string(),
    retriable: z.boolean().check(describe('True: the same card may be tried again (new token). False: ask for another card.')),
  })
  .check(id('AttemptError'));
export type AttemptError = z.infer<typeof AttemptError>;

export const ThreeDs = z
  .enum(['pending', 'not_required', 'frictionless', 'challenge_pending', 'challenge_completed', 'challenge_failed', 'skipped_moto'])
  .check(describe('3-D Secure of the attempt: pending until confirm'));

export const StoredCard = z
  .object({
    id: z.string().check(describe('card_…: attach it as `token` on a later intent of the same account_id')),
    account_id: z.string(),
    scheme: z.enum(SCHEME_NAMES),
    last4: z.string(),
    expiry_month: z.int(),
    expiry_year: z.int(),
  })
  .check(id('StoredCard'));

/** What the browser may read about its own intent (no personal data). */
export const SessionIntent = z
  .object({
    paymentIntentId: z.string(),
    status: IntentStatus,
    amount: z.int(),
    currency: z.string(),
    amount_formatted: z.string().check(describe('In en-GB, e.g. £12.34')),
    moto: z.boolean(),
    opaque_key: z.string(),
    purpose: z.optional(IntentPurpose),
  })
  .check(id('SessionIntent'));
export type SessionIntent = z.infer<typeof SessionIntent>;

export const AttachResponse = z
  .object({
    paymentIntentId: z.string(),
    /** requires_customer_confirmation, or requires_payment_method when the attempt failed (see error). */
    status: IntentStatus,
    attempt_id: z.string(),
    three_ds_transaction_id: z.string(),
    payment_method: PaymentMethod,
    stored_card: z.nullable(StoredCard),
    error: z.nullable(AttemptError).check(describe('Set when status is requires_payment_method: do not confirm; retry only if retriable')),
  })
  .check(describe('status is requires_customer_confirmation, or requires_payment_method when the attempt failed (see error): then do not confirm.'), id('AttachResponse'));
export type AttachResponse = z.infer<typeof AttachResponse>;

export const ChallengePayload = z
  .object({
    url: z.string().check(describe('Page of the service origin to show in an iframe or pop-up; carries a per-challenge secret')),
    transaction_id: z.string().check(describe("The attempt's 3-D Secure transaction id")),
  })
  .check(id('ChallengePayload'));
export type ChallengePayload = z.infer<typeof ChallengePayload>;

export const ConfirmResponse = z
  .object({
    paymentIntentId: z.string(),
    /** requires_authorisation, or requires_customer_authentication with a challenge. */
    status: IntentStatus,
    three_ds_transaction_id: z.string(),
    three_ds: ThreeDs,
    challenge: z.nullable(ChallengePayload),
  })
  .check(describe('status is requires_authorisation, or requires_customer_authentication with a challenge to show.'), id('ConfirmResponse'));
export type ConfirmResponse = z.infer<typeof ConfirmResponse>;

export const AuthoriseResponse = z
  .object({
    paymentIntentId: z.string(),
    status: IntentStatus,
    authorised: z.boolean(),
    amount: z.int(),
    currency: z.string(),
    captured: z.boolean(),
    authorisation_code: z.nullable(z.string()),
    error: z.nullable(AttemptError).check(describe('Why authorisation was refused (card_declined, insufficient_funds, incorrect_cvc)')),
  })
  .check(id('AuthoriseResponse'));
export type AuthoriseResponse = z.infer<typeof AuthoriseResponse>;

/**
 * What the SDK reads of an authorise answer: the service's AuthoriseResponse, or whatever the
 * merchant's own authorise endpoint answers (the spec shows only `status`), so each field is optional.
 */
export const AuthoriseAnswer = z.object({
  status: z.optional(IntentStatus),
  authorised: z.optional(z.boolean()),
  // The SDK reads only these two of an error (AttemptError has more; a merchant's route may send fewer).
  error: z.optional(z.nullable(z.object({ code: z.optional(z.string()), message: z.optional(z.string()) }))),
});

export const TokeniseResponse = z
  .object({
    data: z.object({
      cp_card_token: z.string().check(describe('Single-use tok_…, expires after 15 minutes')),
      scheme: z.enum(SCHEME_NAMES),
      last4: z.string(),
      expiry_month: z.int(),
      expiry_year: z.int(),
      expires_at: timestamp,
    }),
  })
  .check(id('TokeniseResponse'));
export type TokeniseResponse = z.infer<typeof TokeniseResponse>;
