import { z } from 'zod';
import { EventTypeSelector } from './events.ts';
import { formBoolean, idString, listEnvelope, listQuery, text } from './form-values.ts';

const timestamp = z.int().describe('Unix time in seconds');

/** Where a webhook endpoint receives its events: an http(s) URL without a user name or password. */
export const WebhookUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'expected an http or https URL without a user name or password, such as https://shop.example/webhooks');

/** `["*"]`, exact types and `prefix.*` wildcards; a form may send `enabled_events[]=…` or `enabled_events=a,b`. */
export const EnabledEvents = z
  .preprocess((value) => (typeof value === 'string' ? value.split(',') : value), z.array(EventTypeSelector).min(1, 'list at least one event type, or *').max(50))
  .describe('The events to send: ["*"] for all, exact types such as payment_intent.succeeded, or prefix wildcards such as payment_intent.*');

export const WebhookEndpointStatus = z.enum(['enabled', 'disabled']);

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    enabled_events: z.array(z.string()),
    description: z.string().nullable(),
    status: WebhookEndpointStatus,
    disabled_reason: z.string().nullable().describe('Why it is disabled: by you (disabled=true), or its receiver answered 410 Gone'),
    created: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The answers of create and rotate_secret: the only two that show the signing secret. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_…: verify each delivery with it (Standard Webhooks). Shown only here.'),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const WebhookEndpointList = listEnvelope(WebhookEndpoint).meta({ id: 'WebhookEndpointList' });
export const WebhookEndpointListQuery = z.strictObject(listQuery);

export const WebhookEndpointCreate = z.strictObject({
  url: WebhookUrl,
  enabled_events: EnabledEvents,
  description: text(500).optional(),
});

export const WebhookEndpointUpdate = z.strictObject({
  url: WebhookUrl.optional(),
  enabled_events: EnabledEvents.optional(),
  description: z
    .union([text(500), z.literal(''), z.null()])
    .transform((v) => (v === '' ? null : v))
    .optional(),
  disabled: formBoolean.optional().describe('true disables the endpoint (nothing is sent); false enables it again, also after a 410'),
});

export const RotateSecretRequest = z.strictObject({});

export const WebhookAttempt = z
  .object({
    id: z.string(),
    object: z.literal('webhook_attempt'),
    endpoint: z.string(),
    event: z.string(),
    event_type: z.string(),
    number: z.int().describe('1 for the first attempt of this event to this endpoint, 2 for the next…'),
    manual: z.boolean().describe('Sent by POST /v1/events/:id/retry, not by the retry schedule'),
    created: timestamp,
    url: z.string(),
    status_code: z.int().nullable().describe('The HTTP status the receiver answered; null when none came (timeout, refused connection)'),
    duration_ms: z.int(),
    response_body: z.string().nullable().describe('The first 2 KiB of the answer'),
    error: z.string().nullable().describe('What went wrong when no answer came, or the answer was not a 2xx'),
    result: z.enum(['succeeded', 'failed']),
    next_retry_at: timestamp.nullable().describe('When the next attempt is due; null after success, after the last attempt, or after a 410'),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookAttemptList = listEnvelope(WebhookAttempt).meta({ id: 'WebhookAttemptList' });
export const WebhookAttemptListQuery = z.strictObject({ ...listQuery, event: idString.optional().describe('Only the attempts of this event') });

export const EventRetryRequest = z.strictObject({ endpoint: idString.describe('The webhook endpoint (we_…) to send the event to now') });

/** A delivery of one event to one endpoint, pending: its attempts list tells how each went. */
export const WebhookDelivery = z
  .object({
    object: z.literal('webhook_delivery'),
    event: z.string(),
    endpoint: z.string(),
    status: z.literal('pending'),
    attempts: z.int().describe('Attempts made so far'),
    next_attempt_at: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
