import * as z from 'zod/mini';

/**
 * What the merchant backend hands the browser for one Payment Intent (spec: PaymentIntentSession).
 * The backend maps the create result's `opaque_key` and `session_token` to these camel-case names.
 * Shared by the SDK (validates `createServerIntent`'s answer), the frames and the service.
 */
export const PaymentIntentSession = z.object({
  paymentIntentId: z.string().check(z.minLength(1, 'must be a non-empty string (the id returned by POST /v1/payment_intents)')),
  sessionToken: z.string().check(z.minLength(1, 'must be a non-empty string (session_token of the create result)')),
  opaqueKey: z.string().check(z.minLength(1, 'must be a non-empty string (opaque_key of the create result)')),
});
export type PaymentIntentSession = z.infer<typeof PaymentIntentSession>;
