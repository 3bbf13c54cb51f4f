import type { CardSummary } from './cards.ts';
import type { IntentStatus } from './intent-states.ts';
import type { Attempt, BillTo, IntentPurpose } from '../../api/payments.ts';

/** An attempt as stored: the card summary of its token (the answer shows its payment_method). */
export type AttemptRow = Omit<Attempt, 'payment_method'> & { card: CardSummary };

/** A Payment Intent as stored. */
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
  failed_attempts: number;
  cancellation_reason: 'requested' | 'too_many_failed_attempts' | null;
  attempts: AttemptRow[];
  created_at: number;
  updated_at: number;
}
