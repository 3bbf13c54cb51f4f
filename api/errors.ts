import { z } from 'zod';

export const ErrorType = z.enum([
  'invalid_request_error',
  'authentication_error',
  'rate_limit_error',
  'idempotency_error',
  'card_error',
  'api_error',
]);
export type ErrorType = z.infer<typeof ErrorType>;

/** The one error body of the contract: `{"error":{"type","code","message","param"}}`. */
export const ErrorBody = z
  .object({
    error: z.object({
      type: ErrorType,
      code: z.string(),
      message: z.string(),
      param: z.string().nullable(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
