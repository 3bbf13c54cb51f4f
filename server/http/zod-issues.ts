import type { z } from 'zod';
import { ApiError } from './api-error.ts';

/** `billTo.firstname` in zod's path becomes `billTo[firstname]`, the name a form client sent. */
export function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return (head ?? '') + rest.map((part) => `[${part}]`).join('');
}

/** Whether `path` names a value in `input` (zod 4 issues do not carry the input they refused). */
function present(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

/**
 * Turns the first zod issue into the contract's 400, naming the field and what is wrong with it:
 * `parameter_unknown`, `parameter_missing` (absent from `input`), else `parameter_invalid`.
 */
export function issueToError(error: z.ZodError, input: unknown): ApiError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const param = paramName([...issue.path, issue.keys[0]]);
    return new ApiError('parameter_unknown', `Received unknown parameter: ${param}.`, param);
  }
  const param = paramName(issue.path);
  if (issue.path.length === 0) {
    const message = issue.code === 'invalid_type' ? 'the request body must be an object of named fields' : lowerFirst(issue.message);
    return new ApiError('parameter_invalid', `Invalid request: ${message}.`, null);
  }
  // A field the client left out is missing, whether its type (a union of spellings included) or a rule across fields asked for it.
  if ((issue.code === 'invalid_type' || issue.code === 'custom' || issue.code === 'invalid_union') && !present(input, issue.path)) {
    const why = issue.code === 'custom' ? ` (${lowerFirst(issue.message)})` : '';
    return new ApiError('parameter_missing', `Missing required param: ${param}${why}.`, param);
  }
  // A record's key that its rule refused (a metadata key too long): that rule's own sentence.
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return new ApiError('parameter_invalid', `Invalid ${param}: ${lowerFirst(message)}.`, param);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
