import { hashSecret, newId } from '../server/identity/secrets.ts';
import type { IntentRow } from '../server/payments/intent-rows.ts';

/**
 * A Payment Intent row as the service stores it, for the tests and benchmarks that write many
 * intents straight into a store (through its collection, as the service would) rather than through
 * the API: an amount paid as its status says, no attempts, a fresh id, session and opaque key.
 */
export function storedIntent(fields: Pick<IntentRow, 'merchant_id' | 'status' | 'created_at'> & Partial<IntentRow>): IntentRow {
  const amount = fields.amount ?? 1000;
  const paid = fields.status === 'succeeded' || fields.status === 'requires_capture';
  return {
    id: newId('pi'),
    amount,
    currency: 'GBP',
    identifier: 'stored',
    auto_capture: fields.status !== 'requires_capture',
    moto: false,
    purpose: 'payment',
    account_id: null,
    billTo: null,
    cardHolderAccount: null,
    recurringIntent: null,
    session_hash: hashSecret(newId('sess')),
    opaque_key: newId('opq'),
    amount_authorised: paid ? amount : null,
    amount_captured: fields.status === 'succeeded' ? amount : 0,
    amount_refunded: 0,
    failed_attempts: fields.status === 'failed' ? 1 : 0,
    cancellation_reason: fields.status === 'cancelled' ? 'abandoned' : null,
    metadata: {},
    description: null,
    attempts: [],
    updated_at: fields.created_at,
    ...fields,
  };
}
