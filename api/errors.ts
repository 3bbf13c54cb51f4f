import { z } from 'zod';
import { ERROR_TYPES, SERVICE_ERROR_CODES, type ServiceErrorCode } from './error-codes.ts';

export const ErrorType = z.enum(ERROR_TYPES);
export type ErrorType = z.infer<typeof ErrorType>;

/** The one error body of the contract: `{"error":{"type","code","message","param"}}`. */
export const ErrorBody = z
  .object({
    error: z.object({
      type: ErrorType,
      code: z.enum(SERVICE_ERROR_CODES as [ServiceErrorCode, ...ServiceErrorCode[]]).describe("A code of the README's table of error codes (api/error-codes.ts)"),
      message: z.string(),
      param: z.string().nullable(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
