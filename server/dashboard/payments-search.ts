import type { z } from 'zod';
import type { PaymentsQuery } from '../../api/dashboard.ts';
import type { PaymentIntent } from '../../api/payments.ts';
import { ApiError } from '../http/api-error.ts';
import type { PaymentsService } from '../payments/payments-service.ts';

type Query = z.output<typeof PaymentsQuery>;

/** `key:value`: a metadata pair, as the search box takes it (Stripe's search writes `metadata['key']:'value'`). */
const METADATA_TERM = /^([^\s:[\]]{1,40}):(.+)$/;

/**
 * The Payments page's list: GET /v1/payment_intents's own list (cursor pages, newest first, never the
 * whole list) with its status and created filters, and the search box's term: an intent's id finds
 * that intent; `key:value` is the list's metadata filter; anything else is the merchant's own
 * reference (the intent's identifier, exactly).
 */
export async function searchPayments(payments: PaymentsService, merchantId: number, query: Query): Promise<{ object: 'list'; url: string; has_more: boolean; data: PaymentIntent[] }> {
  const { q, status, ...rest } = query;
  const list = { ...rest, ...(status ? { status: [status] } : {}) };
  const url = '/dashboard/api/payment_intents';
  if (!q) return { ...(await payments.list(merchantId, list)), url };
  if (/^pi_[A-Za-z0-9]+$/.test(q)) {
    try {
      const intent = await payments.get(merchantId, q);
      const matches = (!status || intent.status === status) && !query.starting_after && !query.ending_before;
      return { object: 'list', url, has_more: false, data: matches ? [intent] : [] };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { object: 'list', url, has_more: false, data: [] };
      throw error;
    }
  }
  const pair = METADATA_TERM.exec(q);
  if (pair) return { ...(await payments.list(merchantId, { ...list, metadata: { [pair[1]!]: pair[2]!.trim() } })), url };
  return { ...(await payments.list(merchantId, list, { identifier: q })), url };
}
