import { ERROR_CODES, type ErrorType, type ServiceErrorCode } from '../../api/error-codes.ts';
import type { ErrorBody } from '../../api/errors.ts';

/**
 * A failure that is the client's to fix (or a deliberate server answer); safe to show as is. Its
 * code is a row of the one table (api/error-codes.ts), which gives its status and type.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    const row = ERROR_CODES[code];
    this.status = row.status;
    this.type = row.type;
  }

  toBody(): ErrorBody {
    return { error: { type: this.type, code: this.code, message: this.message, param: this.param } };
  }
}

export const invalidParam = (param: string, message: string, code: ServiceErrorCode = 'parameter_invalid') => new ApiError(code, message, param);

/** Absent and not-yours look the same, so an id reveals nothing about other users. */
export const noSuch = (kind: string, id: string, param: string | null = 'id') => new ApiError('resource_missing', `No such ${kind}: '${id}'`, param);

export const unauthenticated = (message: string) => new ApiError('unauthenticated', message, null, { 'WWW-Authenticate': 'Bearer' });

export const noSuchRoute = (method: string, path: string) => new ApiError('route_missing', `Unrecognized request URL (${method}: ${path}).`);
