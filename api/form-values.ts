import { z } from 'zod';

/**
 * Form bodies and query strings carry every value as text; JSON carries real types. These schemas
 * accept both spellings and hand the service one type.
 */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

/** `expected` says what a value that is no integer at all should have been (`an integer number of minor units…`). */
export const formInt = (min: number, max: number, expected = 'an integer') =>
  z
    .union([z.int(), z.string().regex(/^-?\d{1,15}$/).transform(Number)], { error: `expected ${expected}` })
    .pipe(z.int().min(min).max(max));

/** Text a person typed on one line (a name, an address line): no control characters, bounded. */
export const text = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\u0000-\u001f\u007f]*$/u, 'must not contain control characters');

/**
 * Text a person typed over several lines (a message): line breaks and tabs, but no other control
 * characters, bounded.
 */
export const multilineText = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/u, 'must not contain control characters other than line breaks and tabs');

/**
 * An id a client sends (in a field or a cursor). Ids are opaque, so one of an unexpected shape is
 * looked up as any other and is a 404 when it names nothing, as the Stripe API answers "No such …";
 * only its length is bounded.
 */
export const idString = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

export const listQuery = {
  limit: formInt(1, 100).optional(),
  starting_after: idString.optional(),
  ending_before: idString.optional(),
};

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), url: z.string(), has_more: z.boolean(), data: z.array(item) });

const seconds = formInt(0, 99_999_999_999);
/**
 * `created=<t>` (that second) or `created[gt|gte|lt|lte]=<t>`, as the Stripe API's list filters
 * (events, intents, refunds); an unknown bound is refused by name (`created[after]`).
 */
export const CreatedFilter = z
  .preprocess((v) => (typeof v === 'string' || typeof v === 'number' ? { gte: v, lte: v } : v), z.strictObject({ gt: seconds.optional(), gte: seconds.optional(), lt: seconds.optional(), lte: seconds.optional() }))
  .describe('Unix seconds: created=t, or bounds created[gt], created[gte], created[lt], created[lte]');

/** A created filter as inclusive bounds (`gt` 5 is `gte` 6). */
export function createdBounds(filter: z.output<typeof CreatedFilter> | undefined): { gte?: number; lte?: number } | undefined {
  if (filter === undefined) return undefined;
  const low = [filter.gte, filter.gt === undefined ? undefined : filter.gt + 1].filter((v) => v !== undefined);
  const high = [filter.lte, filter.lt === undefined ? undefined : filter.lt - 1].filter((v) => v !== undefined);
  return { ...(low.length ? { gte: Math.max(...low) } : {}), ...(high.length ? { lte: Math.min(...high) } : {}) };
}
