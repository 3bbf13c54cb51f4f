import type { ErrorBody, ErrorType } from '../../api/errors.ts';

/** A failure that is the client's to fix (or a deliberate server answer); safe to show as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: { type: this.type, code: this.code, message: this.message, param: this.param } };
  }
}

export const invalidParam = (param: string, message: string, code = 'parameter_invalid') =>
  new ApiError(400, 'invalid_request_error', code, message, param);

/** Absent and not-yours look the same, so an id reveals nothing about other users. */
export const noSuch = (kind: string, id: string, param: string | null = 'id') =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', `No such ${kind}: '${id}'`, param);

export const conflict = (code: string, message: string, param: string | null = null) =>
  new ApiError(409, 'invalid_request_error', code, message, param);

export const unauthenticated = (message: string) =>
  new ApiError(401, 'authentication_error', 'unauthenticated', message, null, { 'WWW-Authenticate': 'Bearer' });

export const noSuchRoute = (method: string, path: string) =>
  new ApiError(404, 'invalid_request_error', 'route_missing', `Unrecognized request URL (${method}: ${path}).`);
