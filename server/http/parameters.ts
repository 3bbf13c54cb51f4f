/**
 * A body as form fields would carry it: every scalar as its text (`true`, `1234`; `null` as the empty
 * text, which every clearable field takes alike), objects and arrays kept. Two bodies with the same
 * parameters, one sent as JSON and one as form fields, are then the same request, as the Stripe API
 * compares an idempotent repeat by its parameters.
 */
export function asFormValues(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(asFormValues);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null); // a key named __proto__ stays a key
    for (const [key, child] of Object.entries(value)) out[key] = asFormValues(child);
    return out;
  }
  return String(value);
}
