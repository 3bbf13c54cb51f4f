import { z } from 'zod';
import { EVENT_TYPES, ownsType, type EventType } from './events.ts';
import { CreatedFilter, formInt, listQuery } from './form-values.ts';
import { CANCELLATION_REASONS, MAX_AMOUNT } from './payments.ts';
import { IntentStatus } from '../protocol/schemas/intent.ts';

/**
 * The dashboard's own endpoints (`/dashboard/api/…`, server/dashboard/): what its pages send and get.
 * Not operations of the public API (no row in routes.ts, not in the OpenAPI document, no client
 * method): they answer only the dashboard's page, with its cookie session and CSRF token, and call
 * the same services as the /v1 routes. The browser app imports these types only.
 */

/** Sign in with the licence key, or with the token of a one-time link (`/dashboard/link#<token>`). */
export const SignIn = z
  .strictObject({ licence_key: z.string().min(1).max(200).optional(), link: z.string().min(1).max(200).optional() })
  .refine((body) => (body.licence_key === undefined) !== (body.link === undefined), { message: 'send exactly one of licence_key or link', path: ['licence_key'] });

export const SessionView = z.object({
  merchant: z.object({ id: z.number(), name: z.string() }),
  csrf_token: z.string(),
  expires_at: z.number(),
  via: z.enum(['licence_key', 'link']),
});
export type SessionView = z.infer<typeof SessionView>;

/** When the rolled key stops working: Stripe's choices. */
export const RollKey = z.strictObject({ expiry: z.enum(['now', '1h', '24h', '7d']) });

export const KeysView = z.object({
  public_key: z.string().nullable(),
  licence_key: z.object({ last4: z.string().nullable(), created_at: z.number().nullable() }),
  expiring: z.array(z.object({ last4: z.string().nullable(), expires_at: z.number() })),
  /** Whether this merchant is the one `npm start` seeded (its credentials.json follows a roll). */
  seeded: z.boolean(),
});
export type KeysView = z.infer<typeof KeysView>;

/** The answer to a roll: the new key, shown this once and never again. */
export const RolledKey = z.object({ licence_key: z.string(), old_key_expires_at: z.number(), sessions_ended: z.number(), credentials_file_updated: z.boolean() });
export type RolledKey = z.infer<typeof RolledKey>;

export const RequestLogQuery = z.strictObject({ ...listQuery, status: z.enum(['2xx', '4xx', '5xx']).optional() });

export const RequestRecordView = z.object({
  id: z.string(),
  request_id: z.string(),
  source: z.enum(['api', 'browser', 'dashboard']),
  method: z.string(),
  path: z.string(),
  query: z.string().optional(),
  status: z.number(),
  idempotency_key: z.string().optional(),
  request_body: z.unknown().optional(),
  response_body: z.unknown().optional(),
  ms: z.number(),
  created_at: z.number(),
});
export type RequestRecordView = z.infer<typeof RequestRecordView>;

export interface ListPage<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  data: T[];
}

/** A capture from the dashboard: the whole authorised amount unless `amount` (minor units). */
export const CaptureBody = z.strictObject({ amount: formInt(1, MAX_AMOUNT).optional() });
/** A cancel from the dashboard, with Stripe's optional reason. */
export const CancelBody = z.strictObject({ cancellation_reason: z.enum(CANCELLATION_REASONS).optional() });

/**
 * The Payments page's list: the API list's status and created filters, and `q`, the search box:
 * an id (`pi_…`), metadata as `key:value`, or else your reference (the intent's identifier).
 */
export const PaymentsQuery = z.strictObject({
  ...listQuery,
  status: z.optional(IntentStatus),
  created: CreatedFilter.optional(),
  q: z.string().trim().max(500).optional(),
});

/** The viewer's time zone, as Date.getTimezoneOffset() gives it (minutes behind UTC), for the days of the charts. */
export const HomeQuery = z.strictObject({ tz_offset: formInt(-14 * 60, 14 * 60).optional() });

/** GET /dashboard/api/home: the Home page's charts and the numbers that need attention. */
export interface HomeView {
  /** The currency the volume charts are in: the one most of the window's payments are in. */
  currency: string;
  /** The last 7 days, oldest first, in the viewer's time zone (`tz_offset`). */
  days: HomeBucket[];
  /** The last 24 hours, oldest first. */
  hours: HomeBucket[];
  /** Why card attempts failed in the window, most frequent first. */
  decline_reasons: { reason: string; count: number }[];
  attention: {
    /** Webhook deliveries of the last 7 days whose latest attempt failed (retrying or given up). */
    failed_webhooks: number | null;
    /** Authorised payments waiting more than a day for capture (their authorisation may lapse). */
    uncaptured_over_a_day: number;
  };
  /** How many payments the charts read, and whether the window held more (only the newest were read). */
  payments_read: number;
  capped: boolean;
  /** Payments of the window in other currencies, left out of the volume charts. */
  other_currencies: number;
}

export interface HomeBucket {
  /** The bucket's start, Unix seconds. */
  start: number;
  /** Succeeded and uncaptured volume, minor units of `currency`. */
  volume: number;
  payments: number;
  succeeded: number;
  failed: number;
}

/**
 * Send test event: the merchant's newest event of `type` sent to one endpoint now, as a retry is (an
 * attempt of its own, in the endpoint's deliveries). Only an event the merchant has: nothing made up.
 */
export const TestEventBody = z.strictObject({
  type: z.enum((Object.keys(EVENT_TYPES) as EventType[]).filter((type) => ownsType('merchant', type)) as [EventType, ...EventType[]]),
});

/** What a webhook attempt sent, as the dashboard's attempts list adds it to each attempt (the body is the event `body_event`). */
export interface AttemptRequestSent {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  /** Headers made at each send and not kept (Standard Webhooks' timestamp and signature): named, not shown. */
  signed_headers: string[];
  body_event: string;
}
