import { maskedPan, type CardSummary } from './cards.ts';
import type { IntentRow } from './intent-rows.ts';
import { formatAmount } from '../../api/iso-codes.ts';
import { REDACTED, type AuthDetails, type PaymentIntent, type VerifyResponse } from '../../api/payments.ts';
import { isPaid } from '../../protocol/runtime/intent-status.ts';

/**
 * What leaves the service about an intent: the backend's view, the browser session's view, and the
 * verify result with its personal fields redacted unless unmasked. Rows never leave as they are.
 */
export const paymentMethodOf = (card: CardSummary) => ({
  scheme: card.scheme,
  last4: card.last4,
  expiry_month: card.exp_month,
  expiry_year: card.exp_year,
  ...(card.wallet ? { wallet: card.wallet } : {}),
});

export function intentView(intent: IntentRow): PaymentIntent {
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
    amount_capturable: intent.status === 'requires_capture' ? (intent.amount_authorised ?? 0) : 0,
    amount_captured: intent.amount_captured,
    amount_received: intent.amount_captured,
    amount_refunded: intent.amount_refunded ?? 0,
    failed_attempts: intent.failed_attempts,
    // A cancel made before cancel took a reason stored "requested": as a cancel without a reason now, null.
    cancellation_reason: intent.cancellation_reason === 'requested' ? null : intent.cancellation_reason,
    metadata: intent.metadata ?? {},
    description: intent.description ?? null,
    attempts: intent.attempts.map(({ card, ...a }) => ({ ...a, payment_method: paymentMethodOf(card) })),
    created: intent.created_at,
    created_at: intent.created_at,
    updated_at: intent.updated_at,
  };
}

/** What the browser session may know: enough for the pay button, nothing personal. */
export function sessionView(intent: IntentRow) {
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

/** `success` only when funds are authorised; personal fields redacted unless named in `unmask`. */
export function verifyView(intent: IntentRow, unmask: readonly string[]): VerifyResponse {
  const authorised = isPaid(intent.status);
  const status: VerifyResponse['status'] = authorised ? 'success' : intent.status === 'failed' ? 'failed' : intent.status === 'cancelled' ? 'cancelled' : 'pending';
  const attempt = [...intent.attempts].reverse().find((a) => a.outcome === 'authorised');
  if (!authorised || !attempt) return { status, intent_status: intent.status, auth: null };
  const bill = intent.billTo ?? {};
  // What the page said at attach (billing_details) comes first, field by field; then billTo; the name on the card last.
  const given = attempt.card.billing_details ?? {};
  const line = given.address && [given.address.line1, given.address.line2, given.address.city].filter(Boolean).join(', ');
  const name = given.name || [bill.title, bill.firstname, bill.lastname].filter(Boolean).join(' ') || attempt.card.name;
  const address = line || [bill.address1, bill.address2, bill.address3].filter(Boolean).join(', ') || null;
  const personal = { name, email: given.email ?? bill.email ?? null, address, postcode: given.address?.postcode ?? bill.postcode ?? null };
  const redacted = (['name', 'email', 'address', 'postcode'] as const).filter((f) => !unmask.includes(f));
  for (const field of redacted) if (personal[field] !== null) personal[field] = REDACTED;
  const auth: AuthDetails = {
    paymentIntentId: intent.id,
    merchantid: intent.merchant_id,
    amount: intent.amount_authorised ?? intent.amount,
    amount_captured: intent.amount_captured,
    amount_refunded: intent.amount_refunded ?? 0,
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
