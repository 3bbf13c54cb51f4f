import type { z } from 'zod';
import { issueToError } from '../http/zod-issues.ts';

/** A body or query checked by its schema: a 400 naming the field otherwise (as the /v1 routes answer). */
export function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw issueToError(result.error, input);
  return result.data;
}
