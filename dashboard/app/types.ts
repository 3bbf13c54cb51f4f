import type { AttemptRequestSent } from '../../api/dashboard.ts';
import type { Attempt, VerifyResponse } from '../../api/payments.ts';
import type { WebhookAttempt, WebhookEndpoint } from '../../api/webhooks.ts';

/**
 * The objects the dashboard shows, as CONTRACT.md ("Events, webhooks, refunds and the dashboard")
 * fixes them; the dashboard's API answers them as the /v1 routes do.
 */
export interface PaymentIntentView {
  id: string;
  object: 'payment_intent';
  status: string;
  amount: number;
  currency: string;
  identifier: string;
  auto_capture: boolean;
  moto: boolean;
  purpose?: string;
  amount_authorised: number | null;
  amount_captured: number;
  amount_capturable?: number;
  amount_received?: number;
  amount_refunded?: number;
  failed_attempts: number;
  cancellation_reason: string | null;
  description?: string | null;
  metadata?: Record<string, string>;
  attempts: Attempt[];
  billTo: Record<string, string> | null;
  created?: number;
  created_at: number;
}

export interface RefundView {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  created: number;
  failure_reason?: string | null;
}

export interface EventView {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Record<string, unknown> & { id?: string; object?: string }; previous_attributes?: Record<string, unknown> };
  request: { id: string | null; idempotency_key: string | null } | null;
}

/** An endpoint as the API answers it; `secret` only in the answer that made it or rotated it. */
export type WebhookEndpointView = WebhookEndpoint & { secret?: string };

/** An attempt as GET /v1/webhook_endpoints/:id/attempts answers it, with the request it sent (the dashboard's API adds it). */
export type WebhookAttemptView = WebhookAttempt & { request: AttemptRequestSent };

/** GET /dashboard/api/payment_intents/:id: the intent with what its page shows beside it. */
export interface PaymentPageView {
  payment_intent: PaymentIntentView;
  events: EventView[];
  refunds?: RefundView[];
  verify: VerifyResponse;
}

/** The intent's created time, whichever field the service answers. */
export const createdOf = (intent: { created?: number; created_at?: number }) => intent.created ?? intent.created_at ?? 0;

/** The card of the latest attempt (what the list shows). */
export const cardOf = (intent: PaymentIntentView) => intent.attempts.at(-1)?.payment_method;
