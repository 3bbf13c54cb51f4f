/**
 * The Payment Intent's statuses and what groups of them mean, said once (zod-free, so the SDK, the
 * frames, the service and the demo all read it; protocol/schemas/intent.ts builds the schema from
 * it). The transition table (server/payments/intent-states.ts) decides moves; these name the groups
 * its readers ask about: "is this paid?", "may a card still be attached?", "can it be refunded?".
 */

/** The nine states of a Payment Intent (SPEC "Payment Intent states"), in the typical order. */
export const INTENT_STATUSES = [
  'open',
  'requires_payment_method',
  'requires_customer_confirmation',
  'requires_customer_authentication',
  'requires_authorisation',
  'succeeded',
  'failed',
  'cancelled',
  'requires_capture',
] as const;
export type IntentStatusName = (typeof INTENT_STATUSES)[number];

/**
 * Paid: the funds are authorised (`requires_capture`) or authorised and captured (`succeeded`).
 * Verify answers `success` for these only; a frame that paid locks its card; the shop fulfils.
 */
export const PAID_STATUSES = ['requires_capture', 'succeeded'] as const satisfies readonly IntentStatusName[];

/** A new card may be tokenised and attached (a new attempt starts). */
export const CARD_STATUSES = ['open', 'requires_payment_method', 'requires_customer_confirmation', 'requires_customer_authentication', 'failed'] as const satisfies readonly IntentStatusName[];

/** Nothing moves the status any more (a succeeded intent may still be refunded: its status stays). */
export const FINAL_STATUSES = ['succeeded', 'cancelled'] as const satisfies readonly IntentStatusName[];

/** Captured money that refunds may return, as the Stripe API allows refunds of succeeded intents only. */
export const REFUNDABLE_STATUSES = ['succeeded'] as const satisfies readonly IntentStatusName[];

const within = (group: readonly string[]) => (status: unknown): boolean => typeof status === 'string' && group.includes(status);

export const isPaid = within(PAID_STATUSES);
export const takesCard = within(CARD_STATUSES);
export const isFinal = within(FINAL_STATUSES);
export const isRefundable = within(REFUNDABLE_STATUSES);
