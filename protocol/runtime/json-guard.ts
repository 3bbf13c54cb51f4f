/**
 * A tiny validator for the JSON Schema subset that `z.toJSONSchema` gives for the protocol's shapes
 * (protocol/runtime/guards.ts, generated from the zod schemas by scripts/gen-guards.ts). The
 * merchant-side SDK validates with it instead of carrying the zod runtime (nor zod's `new Function`
 * probe, which a strict CSP reports).
 *
 * Keywords: type (object, string, number, integer, boolean, array, null, or a list), properties,
 * required, additionalProperties (false or a schema), propertyNames, items, enum, const, anyOf,
 * oneOf, allOf, pattern, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum.
 * Two of ours: `message`, the sentence for a value that fails at this node (the nearest one up the
 * same path is used; without one, `defaultMessage` says it from the node's enum or type), and `custom`, the name of a hand-written check (functions, Elements: what
 * JSON Schema cannot say), looked up in the `customs` the caller passes.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  message?: string;
  custom?: string;
}

/** One fault: where (`[]` for the value itself) and the sentence; `keys` for unknown keys of an object. */
export interface GuardIssue {
  path: string[];
  message: string;
  keys?: string[];
}

export type Customs = Record<string, (value: unknown) => boolean>;

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const hasType = (type: string, value: unknown) =>
  type === 'integer' ? Number.isInteger(value) : type === 'number' ? Number.isFinite(value) : typeOf(value) === type;

/**
 * What a node without its own `message` says: its enum's values, or its type's sentence. The
 * generator (scripts/gen-guards.ts) leaves out a message that says exactly this.
 */
export const defaultMessage = (s: JsonSchema): string =>
  s.enum ? `must be one of ${s.enum.join(', ')}` : s.type === 'string' ? 'must be a string' : s.type === 'boolean' ? 'must be true or false' : s.type === 'object' ? 'must be an object' : '';

/** The issues of `value` against `schema` (empty when it conforms). */
export function check(schema: JsonSchema, value: unknown, customs: Customs = {}, path: string[] = [], issues: GuardIssue[] = [], inherited?: string): GuardIssue[] {
  const s = schema;
  const message = s.message ?? (inherited || defaultMessage(s));
  const count = issues.length;
  const fail = () => (issues.push({ path, message: message || 'is invalid' }), issues);
  // A child at the same path, an item or a record's value inherits this node's message; a property does not.
  const sub = (child: JsonSchema, v: unknown, at: string[], m = message) => check(child, v, customs, at, issues, m).length > count;
  const n = value as number;
  if (s.type && ![s.type].flat().some((type) => hasType(type, value))) return fail();
  if (('const' in s && value !== s.const) || (s.enum && !s.enum.includes(value)) || (s.custom && !customs[s.custom]?.(value))) return fail();
  if (typeof value === 'string' && (value.length < (s.minLength ?? 0) || value.length > (s.maxLength ?? 1 / 0) || (s.pattern && !new RegExp(s.pattern).test(value)))) return fail();
  if (typeof value === 'number' && (n < (s.minimum ?? -1 / 0) || n > (s.maximum ?? 1 / 0) || n <= (s.exclusiveMinimum ?? -1 / 0) || n >= (s.exclusiveMaximum ?? 1 / 0))) return fail();
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const passing = alternatives.filter((alternative) => !check(alternative, value, customs).length).length;
    if (s.anyOf ? !passing : passing !== 1) return fail();
  }
  for (const part of s.allOf ?? []) if (sub(part, value, path)) return issues;
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = s.properties ?? {};
    for (const key in properties)
      if (object[key] !== undefined) sub(properties[key]!, object[key], [...path, key], '');
      else if (s.required?.includes(key)) issues.push({ path: [...path, key], message: properties[key]!.message ?? (defaultMessage(properties[key]!) || 'is required') });
    const extra = Object.keys(object).filter((key) => !(key in properties));
    if (s.additionalProperties === false && extra.length) issues.push({ path, message: message || 'has unknown keys', keys: extra });
    for (const key of extra) {
      if (s.propertyNames) sub(s.propertyNames, key, [...path, key]);
      if (typeof s.additionalProperties === 'object') sub(s.additionalProperties, object[key], [...path, key]);
    }
  }
  if (Array.isArray(value) && s.items) value.forEach((item, i) => sub(s.items!, item, [...path, String(i)]));
  return issues;
}

declare const shape: unique symbol;

/**
 * A generated guard (protocol/runtime/guards.ts): the JSON Schema of a zod schema, carrying that
 * schema's type (a type only: nothing at run time).
 */
export type Guard<T> = JsonSchema & { readonly [shape]?: T };

/** True when `value` conforms to `guard`: narrows to the type of the schema the guard was generated from. */
export const conforms = <T>(guard: Guard<T>, value: unknown): value is T => !check(guard, value).length;

/** Whether `key` names one of a table of guards (the bridge's EVENTS, PARAMS, RESULTS by name). */
export const hasGuard = <K extends string>(guards: Record<K, unknown>, key: string): key is K => Object.hasOwn(guards, key);
