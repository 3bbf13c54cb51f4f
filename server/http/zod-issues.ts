import type { z } from 'zod';
import { ApiError } from './api-error.ts';

/** `billTo.firstname` in zod's path becomes `billTo[firstname]`, the name a form client sent. */
export function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return (head ?? '') + rest.map((part) => `[${part}]`).join('');
}

/** Turns the first zod issue into the contract's 400, naming the field and what is wrong with it. */
export function issueToError(error: z.ZodError, prefix: readonly string[] = []): ApiError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const param = paramName([...prefix, ...issue.path, issue.keys[0]]);
    return new ApiError(400, 'invalid_request_error', 'parameter_unknown', `Received unknown parameter: ${param}.`, param);
  }
  const param = paramName([...prefix, ...issue.path]);
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  if (missing) {
    return new ApiError(400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${param}.`, param);
  }
  const message = param ? `Invalid ${param}: ${lowerFirst(issue.message)}.` : `Invalid request: ${lowerFirst(issue.message)}.`;
  return new ApiError(400, 'invalid_request_error', 'parameter_invalid', message, param || null);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
