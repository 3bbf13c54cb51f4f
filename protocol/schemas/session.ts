import * as z from 'zod/mini';

/**
 * What the merchant backend hands the browser for one Payment Intent (spec: PaymentIntentSession).
 * The backend maps the create result's `opaque_key` and `session_token` to these camel-case names.
 * Shared by the SDK (validates `createServerIntent`'s answer with the generated guard; `message` is its
 * sentence), the frames and the service.
 */
const nonEmpty = (message: string) => z.string().check(z.minLength(1, message), z.meta({ message }));

export const PaymentIntentSession = z.object({
  paymentIntentId: nonEmpty('must be a non-empty string (the id returned by POST /v1/payment_intents)'),
  sessionToken: nonEmpty('must be a non-empty string (session_token of the create result)'),
  opaqueKey: nonEmpty('must be a non-empty string (opaque_key of the create result)'),
});
export type PaymentIntentSession = z.infer<typeof PaymentIntentSession>;
