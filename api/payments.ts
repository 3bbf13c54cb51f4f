import { z } from 'zod';
import { WALLET_IDS } from '../protocol/wallets/ids.ts';
import { CreatedFilter, formBoolean, formInt, listEnvelope, listQuery, text } from './form-values.ts';
import { Metadata, MetadataFilter, MetadataInput } from './metadata.ts';
import {
  AttachResponse,
  AttemptError,
  AuthoriseResponse,
  ChallengePayload,
  ConfirmResponse,
  IntentPurpose,
  IntentStatus,
  PaymentMethod,
  SessionIntent,
  StoredCard,
  ThreeDs,
  TokeniseResponse,
} from '../protocol/schemas/intent.ts';
import { SCHEME_NAMES } from '../protocol/runtime/card-schemes.ts';

// The answers the browser reads are defined once in protocol/ (the SDK and the frames parse them too).
export { AttachResponse, AttemptError, AuthoriseResponse, ChallengePayload, ConfirmResponse, IntentPurpose, PaymentMethod, SessionIntent, StoredCard, ThreeDs, TokeniseResponse };
import { COUNTRIES, CURRENCIES } from './iso-codes.ts';

const timestamp = z.int().describe('Unix time in seconds');

export const WalletName = z.enum(WALLET_IDS);
/** Largest amount in minor units: 99,999,999 (e.g. £999,999.99). */
export const MAX_AMOUNT = 99_999_999;

export const IntentId = z.string().regex(/^pi_[A-Za-z0-9]{1,64}$/, 'expected a payment intent id (pi_…)').describe('Payment Intent id');
const upper = (s: string) => s.toUpperCase();

export const Currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'expected a three-letter ISO 4217 currency code')
  .transform(upper)
  .refine((c) => CURRENCIES.has(c), 'expected an ISO 4217 currency code such as GBP')
  .describe('ISO 4217 currency code (case-insensitive on input, upper case on output)');

const Country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'expected a two-letter ISO 3166-1 country code')
  .transform(upper)
  .refine((c) => COUNTRIES.has(c), 'expected an ISO 3166-1 alpha-2 country code such as GB');

export const BillTo = z
  .strictObject({
    title: text(20).optional(),
    firstname: text(60).optional(),
    lastname: text(60).optional(),
    email: z.email('expected an e-mail address').max(254).optional(),
    address1: text(100).optional(),
    address2: text(100).optional(),
    address3: text(100).optional(),
    country: Country.optional(),
    postcode: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$/, 'expected a postcode of letters, digits, spaces and dashes').optional(),
  })
  .describe('Billing details of the shopper. Every field optional. Personal fields are redacted in verify results unless unmasked.');
export type BillTo = z.output<typeof BillTo>;

/** Who pays with this card, as the shopper told the merchant's page (the SDK's `pay({billingDetails})`). */
export const BillingDetails = z
  .strictObject({
    name: text(200).optional(),
    email: z.email('expected an e-mail address').max(254).optional(),
    address: z
      .strictObject({
        line1: text(200).optional(),
        line2: text(200).optional(),
        city: text(100).optional(),
        postcode: BillTo.shape.postcode,
        country: Country.optional(),
      })
      .optional(),
  })
  .describe("Who pays with this card (Stripe's billing_details): kept with the attempt; verify's auth shows these personal fields in place of the intent's billTo (redacted unless unmasked).");
export type BillingDetails = z.output<typeof BillingDetails>;

const AccountId = z
  .string()
  .regex(/^[A-Za-z0-9_.:@-]{1,64}$/, 'expected 1 to 64 letters, digits or _ . : @ -')
  .describe('The merchant\'s own id of the shopper\'s account. Needed to vault a card (storeCard) and to attach a vaulted card (card_…) later.');

export const CardHolderAccount = z
  .strictObject({
    name: text(120).optional(),
    email: z.email('expected an e-mail address').max(254).optional(),
    mobile: z.string().regex(/^\+?[0-9 ()-]{4,20}$/, 'expected a phone number').optional(),
  })
  .describe('Details to create or update the card holder account named by account_id (requires account_id). Kept with the intent.');

export const RecurringIntent = z
  .strictObject({
    type: z.enum(['subscription', 'instalment', 'unscheduled']),
    interval: z.enum(['day', 'week', 'month', 'year']).optional(),
    interval_count: formInt(1, 365).optional(),
    start_date: z.iso.date().optional().describe('YYYY-MM-DD of the first later payment'),
  })
  .describe(
    'Marks this payment as the first of a series (requires account_id): the attached card is vaulted for the account as if storeCard were true, so later intents can attach it as card_….',
  );

/** What the merchant's own staff or customer reads about the payment (Stripe's `description`). */
const Description = z
  .string()
  .max(1000, 'must be at most 1000 characters')
  .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/u, 'must not contain control characters other than line breaks and tabs')
  .describe('An arbitrary text for you and your customer, at most 1000 characters');

/** Why an intent was cancelled: the values a cancel takes (as the Stripe API), or the card-testing lock. */
export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;
export const CancellationReason = z.enum([...CANCELLATION_REASONS, 'too_many_failed_attempts']);

export const PaymentIntentCreate = z
  .strictObject({
    merchantid: formInt(1, 2 ** 31 - 1, 'an integer: your merchant id (optional: the licence key names the merchant)')
      .optional()
      .describe('Optional: the licence key names the merchant. When given, it must be the merchant of the licence key.'),
    amount: formInt(0, MAX_AMOUNT, 'an integer number of minor units (pence, cents): 1234 for 12.34').describe(
      `Amount in minor units (pence, cents), 1 to ${MAX_AMOUNT}; exactly 0 when purpose is verify (and only then)`,
    ),
    currency: Currency,
    identifier: text(100).describe('Merchant-side reference of the order'),
    billTo: BillTo.optional(),
    account_id: AccountId.optional(),
    cardHolderAccount: CardHolderAccount.optional(),
    recurringIntent: RecurringIntent.optional(),
    autoCapture: formBoolean.optional().describe('Default true: authorise captures at once. False: authorise leaves requires_capture.'),
    moto: formBoolean.optional().describe('Mail or telephone order: 3-D Secure is skipped. Default false.'),
    purpose: z.optional(IntentPurpose).describe('Default payment. verify: a card verification intent (amount 0); the card is vaulted when storeCard or recurringIntent asks.'),
    metadata: MetadataInput.optional(),
    description: Description.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.purpose === 'verify' ? input.amount !== 0 : input.amount < 1)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: input.purpose === 'verify' ? 'must be 0 for a card verification (purpose verify)' : 'must be at least 1 (0 only with purpose verify)' });
    for (const field of ['cardHolderAccount', 'recurringIntent'] as const) {
      if (input[field] !== undefined && input.account_id === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: 'needs account_id' });
    }
  });
export type PaymentIntentCreate = z.output<typeof PaymentIntentCreate>;

export const PaymentIntentCreated = z
  .object({
    paymentIntentId: z.string(),
    opaque_key: z.string().describe('Handed to the SDK (opaqueKey) to initialise the hosted fields'),
    session_token: z.string().describe('Secret paired with the public key for the browser routes; shown once, stored hashed'),
    status: IntentStatus,
  })
  .meta({ id: 'PaymentIntentCreated' });

export const AttemptOutcome = z.enum([
  'attached',
  'attach_failed',
  'awaiting_authentication',
  'authenticated',
  'authentication_failed',
  'authorised',
  'declined',
  'superseded',
  'cancelled',
]);

export const Attempt = z
  .object({
    id: z.string(),
    token: z.string().describe('Reference of the card used: the single-use tok_… (already consumed) or a vaulted card_…'),
    payment_method: PaymentMethod,
    three_ds_transaction_id: z.string().describe('Fresh for every attempt'),
    three_ds: ThreeDs,
    outcome: AttemptOutcome,
    error: z.nullable(AttemptError),
    authorisation_code: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'PaymentAttempt' });
export type Attempt = z.infer<typeof Attempt>;

export const PaymentIntent = z
  .object({
    id: z.string(),
    object: z.literal('payment_intent'),
    status: IntentStatus,
    merchantid: z.int(),
    amount: z.int(),
    currency: z.string(),
    identifier: z.string(),
    auto_capture: z.boolean(),
    moto: z.boolean(),
    purpose: IntentPurpose,
    account_id: z.string().nullable(),
    billTo: z.record(z.string(), z.string()).nullable(),
    cardHolderAccount: z.record(z.string(), z.string()).nullable(),
    recurringIntent: z.record(z.string(), z.union([z.string(), z.int()])).nullable(),
    amount_authorised: z.int().nullable(),
    amount_capturable: z.int().describe('What capture may still take: the authorised amount while requires_capture, else 0 (a partial capture releases the rest)'),
    amount_captured: z.int(),
    amount_received: z.int().describe('What was captured (as the Stripe API names it); refunds do not lower it'),
    amount_refunded: z.int().describe('Refunded, succeeded or pending; a failed refund is given back. Never more than amount_captured'),
    failed_attempts: z.int().describe('Failed card validations, failed attaches, failed 3-D Secure and declines; at 5 the intent is cancelled'),
    cancellation_reason: CancellationReason.nullable().describe('The reason cancel was given (null when none), or too_many_failed_attempts (the card-testing lock)'),
    metadata: Metadata,
    description: z.string().nullable(),
    attempts: z.array(Attempt).describe('Oldest first'),
    created: timestamp.describe('When it was created (the Stripe API\'s name; created_at is the same)'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'PaymentIntent' });
export type PaymentIntent = z.infer<typeof PaymentIntent>;

// Requests. The backend routes require payment_intent_id; the session routes may omit it (the
// session names its intent) and refuse any other.

const backendId = { payment_intent_id: IntentId };
const sessionId = { payment_intent_id: IntentId.optional() };

const attachFields = {
  token: z
    .string()
    .regex(/^(tok|card)_[A-Za-z0-9]{1,64}$/, 'expected a card token (tok_…) or a vaulted card (card_…)')
    .describe('A single-use tok_… from tokenise, or a vaulted card_… of the intent\'s account_id'),
  storeCard: formBoolean.optional().describe('Vault the card for the intent\'s account_id (needs account_id); the answer carries stored_card'),
  billing_details: BillingDetails.optional(),
};
export const AttachRequest = z.strictObject({ ...backendId, ...attachFields });
export const SessionAttachRequest = z.strictObject({ ...sessionId, ...attachFields });
export const IntentRequest = z.strictObject(backendId);
export const CancelRequest = z.strictObject({
  ...backendId,
  cancellation_reason: z.enum(CANCELLATION_REASONS).optional().describe('Why: duplicate, fraudulent, requested_by_customer or abandoned (default none)'),
});

/** POST /v1/payment_intents/:id: what may change after create (Stripe's update, for these two fields). */
export const PaymentIntentUpdate = z.strictObject({
  metadata: MetadataInput.optional(),
  description: z
    .union([Description, z.null()])
    .transform((v) => (v === '' ? null : v))
    .optional()
    .describe('"" (or null) removes it'),
});
export type PaymentIntentUpdate = z.output<typeof PaymentIntentUpdate>;

/** A status filter: `status=succeeded`, `status=succeeded,requires_capture` or `status[]=…` repeated. */
const StatusFilter = z
  .preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(IntentStatus).min(1).max(9))
  .describe('One status, or several (status[]=a&status[]=b, or comma separated)');

export const PaymentIntentListQuery = z.strictObject({
  ...listQuery,
  status: StatusFilter.optional(),
  created: CreatedFilter.optional(),
  metadata: MetadataFilter.optional(),
});
export type PaymentIntentListQuery = z.output<typeof PaymentIntentListQuery>;
export const PaymentIntentList = listEnvelope(PaymentIntent).meta({ id: 'PaymentIntentList' });
export const SessionIntentRequest = z.strictObject(sessionId);
export const CaptureRequest = z.strictObject({
  ...backendId,
  amount: formInt(1, MAX_AMOUNT).optional().describe('Default: the whole authorised amount. At most the authorised amount; capture happens once.'),
});
export const UnmaskField = z.enum(['name', 'email', 'address', 'postcode']);
export const VerifyRequest = z.strictObject({
  ...backendId,
  // A form may send `unmask_fields[0]=email`, `unmask_fields=email,name` or an empty value.
  unmask_fields: z
    .preprocess((v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v), z.array(UnmaskField).max(4).optional())
    .transform((v) => v ?? [])
    .describe('Personal fields to show in clear: name, email, address, postcode. Empty or absent redacts all four.'),
});

export const REDACTED = '[redacted]';
const personal = z.string().nullable().describe(`"${REDACTED}" unless named in unmask_fields; null when not given`);

export const AuthDetails = z
  .object({
    paymentIntentId: z.string(),
    merchantid: z.int(),
    amount: z.int().describe('Authorised amount, minor units'),
    amount_captured: z.int(),
    amount_refunded: z.int().describe('Refunded so far (succeeded or pending refunds): the order page shows it'),
    currency: z.string(),
    identifier: z.string(),
    authorisation_code: z.string(),
    masked_pan: z.string().describe('e.g. 424242******4242'),
    scheme: z.enum(SCHEME_NAMES),
    last4: z.string(),
    expiry_month: z.int(),
    expiry_year: z.int(),
    three_ds: ThreeDs,
    purpose: z.enum(IntentPurpose.options).describe('verify: a card verification, authorised without moving money (amount 0)'),
    wallet: WalletName.nullable().describe('The wallet the card came from, or null for a card entered in the hosted fields'),
    name: personal,
    email: personal,
    address: personal.describe('address1, address2, address3 joined with ", "'),
    postcode: personal,
    country: z.string().nullable(),
    redacted: z.array(UnmaskField).describe('Which personal fields are redacted'),
  })
  .meta({ id: 'AuthDetails' });
export type AuthDetails = z.infer<typeof AuthDetails>;

export const VerifyResponse = z
  .object({
    status: z
      .enum(['success', 'failed', 'cancelled', 'pending'])
      .describe('success only when the funds are authorised (succeeded or requires_capture); fulfil only then'),
    intent_status: IntentStatus,
    auth: AuthDetails.nullable().describe('Set when status is success'),
  })
  .meta({ id: 'VerifyResponse' });
export type VerifyResponse = z.infer<typeof VerifyResponse>;

/** The card fields of tokenise (the frames) and of POST /v1/tokens (a server, test mode): one shape, one validation. */
const CardInput = z.strictObject({
  number: z.string().max(32),
  exp_month: z.union([z.string().max(4), z.int()]).transform(String),
  exp_year: z.union([z.string().max(4), z.int()]).transform(String),
  cvc: z.string().max(8),
  name: z.string().max(120),
});

export const TokeniseRequest = z.strictObject({ ...sessionId, card: CardInput });

/** POST /v1/tokens: no intent yet; the token attaches to any one intent of the key's merchant. */
export const TokenCreateRequest = z.strictObject({ card: CardInput });

/** `GET /v1/public_keys/:key`: the key exists (else 404); whether the page asking (its Origin) may embed its components. */
export const PublicKeyCheck = z
  .strictObject({
    object: z.literal('public_key'),
    livemode: z.boolean(),
    origin: z.string().nullable().describe('The Origin the request came with (null without one)'),
    origin_allowed: z.boolean().describe('Whether pages of that origin may embed this key\'s components (npm run -s merchant -- --origin …)'),
  })
  .describe('What the SDK checks before it mounts a frame: never the merchant, its name or its other origins.');
