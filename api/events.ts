import { z } from 'zod';
import { CreatedFilter, listEnvelope, listQuery } from './form-values.ts';

export { createdBounds } from './form-values.ts';
import { Contact, Conversation, Message } from './messaging.ts';
import { PaymentIntent } from './payments.ts';
import { Refund } from './refunds.ts';

/**
 * Every event type, whose credential owns it (a merchant's licence key, or a messaging user's access
 * token) and when it happens: the one list the service records, docs/webhooks.md's table, the filters and
 * the webhook endpoints' `enabled_events` check. A new type is a row here (and `EVENT_OBJECTS` when
 * its object is new).
 */
export const EVENT_TYPES = {
  'payment_intent.created': { owner: 'merchant', when: 'A Payment Intent was created (status open).' },
  'payment_intent.updated': {
    owner: 'merchant',
    when: 'A Payment Intent moved on without another event naming it: the browser session started (requires_payment_method), a card was attached (requires_customer_confirmation), 3-D Secure passed (requires_authorisation).',
  },
  'payment_intent.requires_action': { owner: 'merchant', when: 'A 3-D Secure challenge is waiting for the shopper (requires_customer_authentication).' },
  'payment_intent.amount_capturable_updated': { owner: 'merchant', when: 'Authorised with capture deferred (requires_capture): amount_authorised can be captured.' },
  'payment_intent.succeeded': { owner: 'merchant', when: 'The payment succeeded: authorised and captured, or a card verification authorised. Fulfil the order here.' },
  'payment_intent.payment_failed': {
    owner: 'merchant',
    when: "A card attempt failed (refused card, failed attach, failed 3-D Secure, decline); the last attempt's error says why.",
  },
  'payment_intent.cancelled': { owner: 'merchant', when: 'Cancelled: by the merchant, or locked after 5 failed attempts (cancellation_reason says which).' },
  'refund.created': { owner: 'merchant', when: 'A refund was made (succeeded at once, or pending: card 4000 0000 0000 5126).' },
  'refund.updated': { owner: 'merchant', when: 'A refund changed: a pending one settled (refund.succeeded or refund.failed follows).' },
  'refund.succeeded': { owner: 'merchant', when: 'A refund succeeded: the money went back to the card.' },
  'refund.failed': { owner: 'merchant', when: 'A pending refund failed (failure_reason); its amount is refundable again.' },
  'contact.created': { owner: 'user', when: 'A contact was created (with its conversation, which has an event of its own).' },
  'contact.updated': { owner: 'user', when: 'A contact changed: display_name, conversation_id, or last_active_at when a message was posted.' },
  'contact.deleted': { owner: 'user', when: 'A contact was deleted (data.object is the contact as it was).' },
  'conversation.created': { owner: 'user', when: 'A conversation was created.' },
  'conversation.updated': { owner: 'user', when: 'A conversation was pinned, muted, archived, restored, opened, its pinned message changed, or a message was posted.' },
  'conversation.deleted': { owner: 'user', when: 'A conversation and its messages were deleted (data.object is the conversation as it was).' },
  'message.created': { owner: 'user', when: 'A message was posted in a conversation.' },
} as const satisfies Record<string, { owner: EventOwnerKind; when: string }>;

/** Who owns an event: a merchant (licence key) or a messaging user (access token). */
export type EventOwnerKind = 'merchant' | 'user';

export type EventType = keyof typeof EVENT_TYPES;
export const EventType = z.enum(Object.keys(EVENT_TYPES) as [EventType, ...EventType[]]);

/** The object each event type's prefix carries in `data.object`. */
export const EVENT_OBJECTS = { payment_intent: PaymentIntent, refund: Refund, contact: Contact, conversation: Conversation, message: Message } as const;

const prefixOf = (type: string) => type.slice(0, type.indexOf('.'));
/** The prefixes of the event types (`payment_intent`, `contact`, …), each usable as `prefix.*`. */
export const EVENT_PREFIXES = [...new Set(Object.keys(EVENT_TYPES).map(prefixOf))];

/** Whether `type` is one an owner of this kind can have. */
export const ownsType = (kind: EventOwnerKind, type: EventType): boolean => EVENT_TYPES[type].owner === kind;

/**
 * A choice of event types: `*` (all), one type, or a prefix wildcard such as `payment_intent.*` (as
 * Stripe's `type` filter and `enabled_events` take them).
 */
export const EventTypeSelector = z
  .string()
  .max(100)
  .refine(
    (value) => value === '*' || Object.hasOwn(EVENT_TYPES, value) || (value.endsWith('.*') && EVENT_PREFIXES.includes(value.slice(0, -2))),
    `expected an event type such as payment_intent.succeeded, a prefix wildcard such as payment_intent.*, or * (types: ${Object.keys(EVENT_TYPES).join(', ')})`,
  );

/** Whether an event of `type` is chosen by `selector` (see EventTypeSelector). */
export const selects = (selector: string, type: string): boolean =>
  selector === '*' || selector === type || (selector.endsWith('.*') && prefixOf(type) === selector.slice(0, -2));

const timestamp = z.int().describe('Unix time in seconds');

/** The API request that made the change, as in Stripe's events: its Request-Id and X-Idempotency-Key. */
export const EventRequest = z.object({ id: z.string().describe('The Request-Id header of that answer'), idempotency_key: z.string().nullable() });

export const Event = z
  .object({
    id: z.string(),
    object: z.literal('event'),
    type: EventType,
    created: timestamp,
    data: z.object({
      object: z.union([PaymentIntent, Refund, Contact, Conversation, Message]).describe('The object as the API answered it right after the change (a deleted one: as it was)'),
      previous_attributes: z.record(z.string(), z.unknown()).optional().describe('The fields the change set, with their values before it (absent for a created object)'),
    }),
    request: EventRequest.nullable().describe('The API request that made the change; null when none did'),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

type EventObjects = { [P in keyof typeof EVENT_OBJECTS]: z.output<(typeof EVENT_OBJECTS)[P]> };
/** The object of an event type (its prefix's: `payment_intent.*` carries a PaymentIntent). */
export type EventObject<T extends EventType> = T extends `${infer P}.${string}` ? (P extends keyof EventObjects ? EventObjects[P] : never) : never;

/** An event whose `data.object` is typed by its `type`: narrow with `if (event.type === 'payment_intent.succeeded')`. */
export type TypedEvent<T extends EventType = EventType> = {
  [K in T]: Omit<Event, 'type' | 'data'> & { type: K; data: { object: EventObject<K>; previous_attributes?: Partial<EventObject<K>> } };
}[T];

export const EventList = listEnvelope(Event).meta({ id: 'EventList' });

export const EventListQuery = z.strictObject({
  ...listQuery,
  type: EventTypeSelector.optional().describe('One type, a prefix wildcard (payment_intent.*) or *'),
  created: CreatedFilter.optional(),
});
export type EventListQuery = z.output<typeof EventListQuery>;
