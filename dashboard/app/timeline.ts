import { cardText, formatMoney, words } from './format.ts';
import type { EventView } from './types.ts';

export interface TimelineEntry {
  event: EventView;
  text: string;
  tone: 'ok' | 'bad' | 'info';
}

/** Why an intent failed, from its last attempt's error (the event's object is the intent). */
function failure(object: Record<string, unknown>): string {
  const attempts = (object.attempts as { error?: { message?: string; code?: string } | null }[] | undefined) ?? [];
  const error = [...attempts].reverse().find((attempt) => attempt.error)?.error;
  const last = object.last_payment_error as { message?: string } | undefined;
  return last?.message ?? error?.message ?? error?.code ?? 'no reason given';
}

/** A payment_intent.updated in words: the status it moved to (3-D Secure answered, a card attached…). */
function updated(event: EventView): string {
  const object = event.data.object as Record<string, unknown>;
  const before = event.data.previous_attributes ?? {};
  if (object.status !== before.status && before.status !== undefined) {
    if (before.status === 'requires_customer_authentication' && object.status === 'requires_authorisation') return '3-D Secure challenge completed';
    if (object.status === 'requires_customer_confirmation') return `Card attached: ${cardOf(object)}`;
    if (object.status === 'requires_payment_method') return before.status === 'open' ? 'Checkout opened: waiting for a card' : 'Waiting for another card';
    if (object.status === 'requires_authorisation') return '3-D Secure passed (frictionless)';
    return `Now ${words(String(object.status)).toLowerCase()}`;
  }
  if ('metadata' in before || 'description' in before) return 'Metadata or description updated';
  return 'Updated';
}

/** The card of an intent's last attempt, in words. */
const cardOf = (object: Record<string, unknown>) => cardText((object.attempts as { payment_method?: { scheme?: string; last4?: string } }[] | undefined)?.at(-1)?.payment_method);

const money = (object: Record<string, unknown>, field = 'amount') => formatMoney(Number(object[field] ?? 0), String(object.currency ?? 'gbp'));

/**
 * A payment's history in words, oldest first, from its events (ARCHITECTURE: the timeline reads
 * events, it never re-derives history): created, 3-D Secure asked and answered, authorised,
 * captured, refunded, failed with the reason.
 */
export function timeline(events: readonly EventView[]): TimelineEntry[] {
  return [...events]
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1))
    .map((event) => {
      const object = event.data.object as Record<string, unknown>;
      const entry = (text: string, tone: TimelineEntry['tone'] = 'info'): TimelineEntry => ({ event, text, tone });
      switch (event.type) {
        case 'payment_intent.created':
          return entry(`Payment of ${money(object)} created`);
        case 'payment_intent.updated':
          return entry(updated(event));
        case 'payment_intent.requires_action':
          return entry('3-D Secure challenge asked of the shopper');
        case 'payment_intent.amount_capturable_updated':
          return entry(`Authorised ${money(object, object.amount_capturable === undefined ? 'amount_authorised' : 'amount_capturable')}: waiting for capture`, 'ok');
        case 'payment_intent.succeeded':
          return entry(
            object.amount_received !== undefined && object.amount_received !== object.amount
              ? `Captured ${money(object, 'amount_received')}: payment succeeded`
              : 'Payment succeeded',
            'ok',
          );
        case 'payment_intent.payment_failed':
          return entry(`Payment failed: ${failure(object)}`, 'bad');
        case 'payment_intent.cancelled':
        case 'payment_intent.canceled':
          return entry(`Cancelled${object.cancellation_reason ? ` (${words(String(object.cancellation_reason)).toLowerCase()})` : ''}`, 'bad');
        case 'refund.created':
          return entry(`Refund of ${money(object)} created${object.reason ? ` (${words(String(object.reason)).toLowerCase()})` : ''}`);
        case 'refund.succeeded':
          return entry(`Refund of ${money(object)} succeeded`, 'ok');
        case 'refund.failed':
          return entry(`Refund of ${money(object)} failed${object.failure_reason ? `: ${String(object.failure_reason)}` : ''}`, 'bad');
        case 'refund.updated':
          return entry(`Refund of ${money(object)} is ${String(object.status ?? 'updated')}`);
        default:
          return entry(words(event.type.replace('.', ': ')));
      }
    });
}

/** What the attempt's 3-D Secure field says, in words. */
export function threeDsText(value: string): string {
  const known: Record<string, string> = {
    pending: 'Not yet',
    frictionless: 'Frictionless',
    challenge_pending: 'Challenge asked, no answer yet',
    challenge_completed: 'Challenge completed',
    challenge_failed: 'Challenge failed',
    skipped_moto: 'Skipped (MOTO)',
  };
  return known[value] ?? words(value);
}
