import { z } from 'zod';

/**
 * Form bodies and query strings carry every value as text; JSON carries real types. These schemas
 * accept both spellings and hand the service one type.
 */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

export const formInt = (min: number, max: number) =>
  z
    .union([z.int(), z.string().regex(/^-?\d{1,15}$/, 'expected an integer').transform(Number)])
    .pipe(z.int().min(min).max(max));

/** Text a person typed: no control characters, bounded. */
export const text = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\u0000-\u001f\u007f]*$/u, 'must not contain control characters');

/** An id of this service: letters, digits and underscores, bounded. */
export const idString = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'expected an id');

export const listQuery = {
  limit: formInt(1, 100).optional(),
  starting_after: idString.optional(),
  ending_before: idString.optional(),
};

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), url: z.string(), has_more: z.boolean(), data: z.array(item) });
