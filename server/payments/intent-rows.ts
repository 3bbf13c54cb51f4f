import type { CardSummary } from './cards.ts';
import type { IntentStatus } from './intent-states.ts';
import type { Attempt, BillTo, CancellationReason, IntentPurpose } from '../../api/payments.ts';
import type { z } from 'zod';

/** An attempt as stored: the card summary of its token (the answer shows its payment_method). */
export type AttemptRow = Omit<Attempt, 'payment_method'> & { card: CardSummary };

/**
 * A Payment Intent as stored: THE declaration of its shape. The embedded engine keeps these objects
 * as they are; PostgreSQL's column map (server/store/pg-schema.ts, TABLES.payment_intents) is typed
 * against this interface, so a field added here without a column does not compile, and
 * test/server/pg-schema.test.ts compares that map with the migrated table.
 */
export interface IntentRow {
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
  /** Succeeded and pending refunds; absent on rows written before refunds existed: 0. */
  amount_refunded?: number;
  failed_attempts: number;
  /** `requested`: a cancel before cancel took a reason (shown as null, as a cancel without one now is). */
  cancellation_reason: z.output<typeof CancellationReason> | 'requested' | null;
  /** Absent on rows written before metadata existed: none. */
  metadata?: Record<string, string>;
  description?: string | null;
  attempts: AttemptRow[];
  created_at: number;
  updated_at: number;
}
