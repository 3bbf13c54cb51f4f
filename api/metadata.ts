import { z } from 'zod';

/**
 * `metadata` and its list filter, as the Stripe API has them: up to
 * 50 keys of at most 40 characters (no square brackets, which form encoding uses), values of at
 * most 500 characters. Form bodies send `metadata[order_id]=6735`; JSON sends an object.
 */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

const MetadataKey = z
  .string()
  .min(1, 'metadata keys must not be empty')
  .max(METADATA_LIMITS.keyLength, `metadata keys are at most ${METADATA_LIMITS.keyLength} characters`)
  .regex(/^[^[\]]+$/, 'metadata keys must not contain square brackets');

const MetadataValue = z.preprocess(
  // JSON numbers and booleans are sent as their text, as a form (and Stripe's clients) would send them.
  (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
  z
    .string()
    .max(METADATA_LIMITS.valueLength, `metadata values are at most ${METADATA_LIMITS.valueLength} characters`)
    .nullable()
    .transform((v) => (v === '' ? null : v)),
);

/**
 * What a request sends: each key set to its value; a key set to `""` (or null) is removed, and
 * `metadata=""` (or null) removes every key, as the Stripe API's update does. Null in the output
 * means "clear all"; a null value means "remove this key".
 */
export const MetadataInput = z
  .preprocess(
    // `metadata=` (form) clears; qs reads `metadata[0]=x` as an array: its keys are "0", "1"…
    (v) => (v === '' ? null : Array.isArray(v) ? Object.fromEntries(v.map((value, i) => [String(i), value])) : v),
    z.record(MetadataKey, MetadataValue).nullable(),
  )
  .superRefine((metadata, ctx) => {
    if (metadata && Object.keys(metadata).length > METADATA_LIMITS.keys)
      ctx.addIssue({ code: 'custom', message: `metadata has at most ${METADATA_LIMITS.keys} keys` });
  })
  .describe(`Up to ${METADATA_LIMITS.keys} keys of at most ${METADATA_LIMITS.keyLength} characters, values of at most ${METADATA_LIMITS.valueLength}; "" removes a key, metadata="" removes all`);
export type MetadataInput = z.output<typeof MetadataInput>;

export const Metadata = z.record(z.string(), z.string()).describe('Your key/value pairs (metadata)');

/** `metadata[key]=value` in a list's query: only objects with every one of these pairs. */
export const MetadataFilter = z
  .record(MetadataKey, z.string().max(METADATA_LIMITS.valueLength))
  .superRefine((pairs, ctx) => {
    if (Object.keys(pairs).length > 10) ctx.addIssue({ code: 'custom', message: 'filter on at most 10 metadata keys' });
  })
  .describe('metadata[key]=value: only objects whose metadata has every pair given');

/** The metadata after an update: the request's changes applied to what was kept (null clears all). */
export function mergeMetadata(kept: Readonly<Record<string, string>>, change: MetadataInput | undefined): Record<string, string> {
  if (change === undefined) return { ...kept };
  if (change === null) return {};
  const merged: Record<string, string> = { ...kept };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
