import { z } from 'zod';
import { CreatedFilter, formInt, idString, listEnvelope, listQuery } from './form-values.ts';
import { Metadata, MetadataInput } from './metadata.ts';
import { MAX_AMOUNT } from './payments.ts';

/** Refunds of captured money (server/payments/refunds.ts), in the Stripe API's shape. */

const timestamp = z.int().describe('Unix time in seconds');

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const RefundStatus = z
  .enum(REFUND_STATUSES)
  .describe('succeeded: the money went back to the card. pending: the processor answers later (then succeeded or failed). failed: the money is back in your captured amount, refundable again.');
export type RefundStatus = z.infer<typeof RefundStatus>;

export const RefundReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer']);

/** Why a refund failed, with the Stripe API's values. */
export const RefundFailureReason = z.enum(['expired_or_canceled_card', 'lost_or_stolen_card', 'declined', 'unknown']);
export type RefundFailureReason = z.infer<typeof RefundFailureReason>;

export const Refund = z
  .object({
    id: z.string().describe('re_…'),
    object: z.literal('refund'),
    payment_intent: z.string(),
    amount: z.int().describe('Minor units'),
    currency: z.string(),
    status: RefundStatus,
    reason: RefundReason.nullable(),
    failure_reason: RefundFailureReason.nullable().describe('Set when status is failed'),
    metadata: Metadata,
    created: timestamp,
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof Refund>;

export const RefundCreate = z.strictObject({
  payment_intent: idString.describe('The succeeded Payment Intent (pi_…) whose captured money to refund'),
  amount: formInt(1, MAX_AMOUNT).optional().describe('Minor units; default: all that remains refundable. The refunds of an intent never add up to more than it captured.'),
  reason: RefundReason.optional(),
  metadata: MetadataInput.optional(),
});
export type RefundCreate = z.output<typeof RefundCreate>;

export const RefundList = listEnvelope(Refund).meta({ id: 'RefundList' });
export const RefundListQuery = z.strictObject({
  ...listQuery,
  payment_intent: idString.optional().describe("Only this intent's refunds"),
  created: CreatedFilter.optional(),
});
export type RefundListQuery = z.output<typeof RefundListQuery>;
