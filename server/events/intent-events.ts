import type { EventType } from '../../api/events.ts';
import type { IntentRow } from '../payments/intent-rows.ts';
import { intentView } from '../payments/payment-views.ts';
import type { Events } from './events.ts';
import { merchantOwner } from './owner.ts';

/**
 * The event of a change of a Payment Intent, named as Stripe names them: by the status it reached
 * (a 3-D Secure challenge waiting, authorised for a later capture, succeeded, cancelled), else a
 * failed card attempt (the failure count rose), else `payment_intent.updated` (the moves Stripe
 * sends nothing for: CPE records every change).
 */
export function intentEventType(before: IntentRow, after: IntentRow): EventType {
  if (after.status !== before.status) {
    if (after.status === 'succeeded') return 'payment_intent.succeeded';
    if (after.status === 'requires_capture') return 'payment_intent.amount_capturable_updated';
    if (after.status === 'requires_customer_authentication') return 'payment_intent.requires_action';
    if (after.status === 'cancelled') return 'payment_intent.cancelled';
  }
  if (after.failed_attempts > before.failed_attempts) return 'payment_intent.payment_failed';
  return 'payment_intent.updated';
}

/**
 * Records the events of Payment Intents, called from PaymentsService's one write point (`#move`)
 * and from `create`, inside the change's transaction. A refund's events go through `Events.record`
 * the same way.
 */
export class IntentEvents {
  constructor(private readonly events: Events) {}

  created(intent: IntentRow): Promise<unknown> {
    return this.events.record(merchantOwner(intent.merchant_id), 'payment_intent.created', intentView(intent));
  }

  changed(before: IntentRow, after: IntentRow): Promise<unknown> {
    return this.events.record(merchantOwner(after.merchant_id), intentEventType(before, after), intentView(after), intentView(before));
  }
}
