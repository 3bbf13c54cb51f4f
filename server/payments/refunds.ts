import type { Clock } from '../clock.ts';
import type { Events } from '../events/events.ts';
import { merchantOwner } from '../events/owner.ts';
import { noSuch } from '../http/api-error.ts';
import { listPage } from '../http/list-page.ts';
import { newId } from '../identity/secrets.ts';
import type { Collection, Store } from '../store/store.ts';
import { createdBounds } from '../../api/form-values.ts';
import type { Refund, RefundFailureReason, RefundListQuery, RefundStatus } from '../../api/refunds.ts';
import { nextRefundStatus } from './intent-states.ts';

/** A refund as stored: the answer's fields, its merchant, and when a pending one's outcome is due. */
export interface RefundRow extends Refund {
  merchant_id: number;
  /** Unix seconds at which the processor's answer to a pending refund is due (the settlement job); null once settled. */
  settles_at: number | null;
  updated_at: number;
}

/** What leaves the service about a refund. */
export const refundView = ({ merchant_id: _merchant, settles_at: _due, updated_at: _updated, _seq, ...refund }: RefundRow & { _seq?: number }): Refund => refund;

/**
 * The refund records: made by PaymentsService.refund beside the intent's `amount_refunded`, settled
 * by the settlement job (refund-settlement.ts). `#write` is the one place a refund row changes, as
 * PaymentsService's `#move` is for intents: the place a change's event is recorded. The rules (what
 * may be refunded, the amounts) are the payments service's.
 */
export class Refunds {
  readonly #refunds: Collection<RefundRow>;

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly events: Events,
  ) {
    this.#refunds = store.collection<RefundRow>('refunds', {
      merchant: (r) => String(r.merchant_id),
      intent: (r) => r.payment_intent,
      // The settlement job's list: pending refunds, oldest first.
      due: (r) => (r.status === 'pending' ? 'pending' : undefined),
    });
  }

  /** A new refund, `succeeded` or `pending` (then due at `settlesAt`). */
  create(input: Pick<RefundRow, 'merchant_id' | 'payment_intent' | 'amount' | 'currency' | 'reason' | 'metadata'>, status: RefundStatus, settlesAt: number | null): Promise<RefundRow> {
    const now = this.clock.now();
    return this.#write(null, {
      id: newId('re'),
      object: 'refund',
      ...input,
      status: nextRefundStatus('create_refund', null, status as 'pending' | 'succeeded'),
      failure_reason: null,
      settles_at: settlesAt,
      created: now,
      updated_at: now,
    });
  }

  /** A pending refund's outcome: succeeded, or failed with the processor's reason. */
  settle(refund: RefundRow, outcome: { status: 'succeeded' } | { status: 'failed'; failureReason: RefundFailureReason }): Promise<RefundRow> {
    const status = nextRefundStatus('settle_refund', refund.status, outcome.status);
    return this.#write(refund, { status, failure_reason: outcome.status === 'failed' ? outcome.failureReason : null, settles_at: null, updated_at: this.clock.now() });
  }

  /**
   * The one write point of refund rows: a new one (`before` null) or a change of one, with its events
   * in the same transaction: refund.created, or refund.updated; then refund.succeeded or
   * refund.failed when that is the status it reached.
   */
  async #write(before: RefundRow | null, change: RefundRow | Partial<RefundRow>): Promise<RefundRow> {
    const after = before === null ? await this.#refunds.insert(change as RefundRow) : await this.#refunds.update(before.id, change);
    const owner = merchantOwner(after.merchant_id);
    const view = refundView(after);
    if (before === null) await this.events.record(owner, 'refund.created', view);
    else await this.events.record(owner, 'refund.updated', view, refundView(before));
    if (after.status !== before?.status && after.status !== 'pending') await this.events.record(owner, after.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed', view);
    return after;
  }

  /** Another merchant's refund answers exactly as an absent one. */
  async own(merchantId: number, id: string, forUpdate = false): Promise<RefundRow> {
    const refund = await this.#refunds.get(id, { forUpdate });
    if (!refund || refund.merchant_id !== merchantId) throw noSuch('refund', id, 'id');
    return refund;
  }

  async list(merchantId: number, query: RefundListQuery) {
    const created = createdBounds(query.created);
    const range = created && { field: 'created', grows: true, ...created };
    const merchant = { index: 'merchant', key: String(merchantId) };
    // An intent's refunds are its own list (the caller checked the intent is this merchant's).
    const { data, hasMore } = query.payment_intent
      ? await listPage(this.#refunds, 're', 'intent', query.payment_intent, query, merchant, undefined, range)
      : await listPage(this.#refunds, 're', merchant.index, merchant.key, query, undefined, undefined, range);
    return { object: 'list' as const, url: '/v1/refunds', has_more: hasMore, data: data.map(refundView) };
  }

  /** Pending refunds whose outcome is due by `now`, oldest first (at most `limit`). */
  async due(now: number, limit = 100): Promise<RefundRow[]> {
    const pending = await this.#refunds.find('due', 'pending');
    return pending.filter((r) => r.settles_at !== null && r.settles_at <= now).slice(0, limit);
  }
}
