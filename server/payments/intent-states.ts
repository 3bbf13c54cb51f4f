import type { IntentStatus } from '../../protocol/schemas/intent.ts';
import { CARD_STATUSES, REFUNDABLE_STATUSES } from '../../protocol/runtime/intent-status.ts';
import type { RefundStatus } from '../../api/refunds.ts';
import { ApiError } from '../http/api-error.ts';

export { IntentStatus } from '../../protocol/schemas/intent.ts';

/** Every operation that may move an intent (or, for refund, change its money without moving it). */
export type IntentOperation = 'start_session' | 'attach' | 'confirm' | 'complete_challenge' | 'fail_challenge' | 'authorise' | 'capture' | 'cancel' | 'refund';

/**
 * THE transition table: for each operation, the statuses it may start from and the statuses it may
 * lead to. Failure-counting moves may also end in `cancelled`, when that failure locks the intent
 * (card-testing defence). Nothing else moves a status. Refunds have their own table below.
 */
export const TRANSITIONS = {
  // The browser session's first request (a hosted frame or the SDK): the intent now waits for a card.
  start_session: { from: ['open'], to: ['requires_payment_method'] },
  // A failed attach asks for another card; a good one waits for confirm. Re-attaching replaces the
  // attempt in progress (also an unanswered challenge), as with Stripe's payment method update.
  attach: { from: CARD_STATUSES, to: ['requires_customer_confirmation', 'requires_payment_method', 'cancelled'] },
  // 3-D Secure challenge when the card asks for one (never for MOTO), else straight to authorisation.
  confirm: { from: ['requires_customer_confirmation'], to: ['requires_customer_authentication', 'requires_authorisation'] },
  complete_challenge: { from: ['requires_customer_authentication'], to: ['requires_authorisation'] },
  // The contract: the 3-D Secure test card is `failed` if the shopper fails the challenge.
  fail_challenge: { from: ['requires_customer_authentication'], to: ['failed', 'cancelled'] },
  // Approved: succeeded (auto capture) or requires_capture; declined: failed (cancelled when locked).
  authorise: { from: ['requires_authorisation'], to: ['succeeded', 'requires_capture', 'failed', 'cancelled'] },
  // Once, full or partial, never above the authorised amount.
  capture: { from: ['requires_capture'], to: ['succeeded'] },
  // Anything not final; on requires_capture it voids the authorisation.
  cancel: {
    from: [...CARD_STATUSES, 'requires_authorisation', 'requires_capture'],
    to: ['cancelled'],
  },
  // Captured money only, as the Stripe API; the intent stays succeeded however much is refunded.
  refund: { from: REFUNDABLE_STATUSES, to: ['succeeded'] },
} as const satisfies Record<IntentOperation, { from: readonly IntentStatus[]; to: readonly IntentStatus[] }>;

export type TargetOf<O extends IntentOperation> = (typeof TRANSITIONS)[O]['to'][number];

export function allows(operation: IntentOperation, status: IntentStatus): boolean {
  return (TRANSITIONS[operation].from as readonly IntentStatus[]).includes(status);
}

/** The 409 for an operation the current status does not allow; it names the status. */
export function assertAllowed(operation: IntentOperation, intent: { id: string; status: IntentStatus }, param = 'payment_intent_id'): void {
  if (!allows(operation, intent.status)) {
    throw new ApiError(
      'payment_intent_unexpected_state',
      `You cannot ${operation.replace('_', ' ')} payment intent ${intent.id}: its status is ${intent.status}.`,
      param,
    );
  }
}

/** The status after `operation`, checked against the table (a wrong target is a programming error). */
export function nextStatus<O extends IntentOperation>(operation: O, from: IntentStatus, to: TargetOf<O>): TargetOf<O> {
  if (!allows(operation, from)) throw new Error(`Transition table: ${operation} is not allowed from ${from}.`);
  if (!(TRANSITIONS[operation].to as readonly IntentStatus[]).includes(to)) throw new Error(`Transition table: ${operation} cannot lead to ${to}.`);
  return to;
}

/** Every operation that moves a refund. */
export type RefundOperation = 'create_refund' | 'settle_refund';

/**
 * The refunds' transition table: a refund is made `succeeded` (the processor returned the money at
 * once) or `pending` (it answers later); a pending one settles `succeeded` or `failed` (the money
 * comes back to the merchant's captured amount). `from: []` marks the operation that makes one.
 */
export const REFUND_TRANSITIONS = {
  create_refund: { from: [], to: ['pending', 'succeeded'] },
  settle_refund: { from: ['pending'], to: ['succeeded', 'failed'] },
} as const satisfies Record<RefundOperation, { from: readonly RefundStatus[]; to: readonly RefundStatus[] }>;

/** A refund's status after `operation` from `from` (null: a new refund), checked against its table. */
export function nextRefundStatus<O extends RefundOperation>(operation: O, from: RefundStatus | null, to: (typeof REFUND_TRANSITIONS)[O]['to'][number]): typeof to {
  const table = REFUND_TRANSITIONS[operation] as { from: readonly RefundStatus[]; to: readonly RefundStatus[] };
  if (from === null ? table.from.length > 0 : !table.from.includes(from)) throw new Error(`Refund transitions: ${operation} is not allowed from ${from ?? 'nothing'}.`);
  if (!table.to.includes(to)) throw new Error(`Refund transitions: ${operation} cannot lead to ${to}.`);
  return to;
}
