import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What a change set, with the values before it, as Stripe's `previous_attributes`: the fields of
 * `after` whose value differs from `before`'s (a field `after` no longer has: with its old value);
 * nested objects by their changed fields only, arrays whole. Undefined when nothing changed.
 */
export function previousAttributes(before: Json, after: Json): Json | undefined {
  const previous: Json = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key];
    const now = after[key];
    if (isDeepStrictEqual(was, now)) continue;
    previous[key] = isPlainObject(was) && isPlainObject(now) ? (previousAttributes(was, now) ?? {}) : (was ?? null);
  }
  return Object.keys(previous).length ? previous : undefined;
}
