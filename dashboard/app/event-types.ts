/** The event types a merchant's payments make (CONTRACT.md), for the filters and the webhook endpoint form. */
export const PAYMENT_EVENT_TYPES = [
  'payment_intent.created',
  'payment_intent.updated',
  'payment_intent.requires_action',
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.cancelled',
  'refund.created',
  'refund.updated',
  'refund.succeeded',
  'refund.failed',
] as const;

/** The wildcards a filter or an endpoint may use. */
export const EVENT_GROUPS = ['payment_intent.*', 'refund.*'] as const;

/** Whether an endpoint's selector (`*`, a type, `prefix.*`) takes events of `type` (as api/events.ts's selects). */
export const selects = (selector: string, type: string): boolean =>
  selector === '*' || selector === type || (selector.endsWith('.*') && type.startsWith(selector.slice(0, -1)));

/** The dashboard page of an event's object, if it has one. */
export function objectHref(object: { id?: unknown; object?: unknown; payment_intent?: unknown }): string | undefined {
  if (object.object === 'payment_intent' && typeof object.id === 'string') return `/dashboard/payments/${object.id}`;
  if (object.object === 'refund' && typeof object.payment_intent === 'string') return `/dashboard/payments/${object.payment_intent}`;
  return undefined;
}
