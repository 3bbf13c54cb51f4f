/**
 * A tiny validator for the protocol's shapes as compact data (protocol/runtime/guards.ts, generated
 * from the zod schemas by scripts/gen-guards.ts through `z.toJSONSchema`). The merchant-side SDK and
 * the frames validate with it instead of carrying the zod runtime (nor zod's `new Function` probe,
 * which a strict CSP reports).
 *
 * A guard is the JSON Schema subset that `z.toJSONSchema` gives, written short (as data it is what
 * the SDK downloads most of; gzip takes the long keywords' repetition only so far): a node is `{}`
 * (anything), a type letter alone (`'s'` is `{type: 'string'}`), or an object of one-letter
 * keywords, each the JSON Schema keyword beside it in `Schema`. `p` (properties) names an optional
 * property with a trailing `?` (the others are required) and implies `t: 'o'`. Two of ours: `s`, the
 * sentence for a value that fails at this node (the nearest one up the same path is used; without
 * one, `defaultMessage` says it from the node's enum or type), and `u`, the name of a hand-written
 * check (functions, Elements: what JSON Schema cannot say), looked up in the `customs` the caller passes.
 */

/** Type letters: string, number (finite), integer, boolean, object, array, null. */
export type TypeLetter = 's' | 'n' | 'i' | 'b' | 'o' | 'a' | 'z';

export interface Schema {
  /** type */
  t?: TypeLetter | TypeLetter[];
  /** properties (`name?`: optional; the others required) */
  p?: Record<string, Node>;
  /** additionalProperties (false or a schema) */
  a?: boolean | Node;
  /** propertyNames */
  k?: Node;
  /** items */
  i?: Node;
  /** enum */
  e?: readonly unknown[];
  /** const */
  c?: unknown;
  /** anyOf */
  y?: Node[];
  /** oneOf */
  o?: Node[];
  /** allOf */
  l?: Node[];
  /** pattern */
  x?: string;
  /** minLength */
  m?: number;
  /** maxLength */
  M?: number;
  /** minimum */
  n?: number;
  /** maximum */
  N?: number;
  /** exclusiveMinimum */
  g?: number;
  /** exclusiveMaximum */
  G?: number;
  /** the sentence for a value that fails here */
  s?: string;
  /** a custom check's name */
  u?: string;
}
/** A guard's node: a schema, or a type letter alone. */
export type Node = Schema | TypeLetter;

/** One fault: where (`[]` for the value itself) and the sentence; `keys` for unknown keys of an object. */
export interface GuardIssue {
  path: string[];
  message: string;
  keys?: string[];
}

export type Customs = Record<string, (value: unknown) => boolean>;

const LETTERS: Record<string, TypeLetter> = { string: 's', number: 'n', boolean: 'b', object: 'o' };
const typeOf = (value: unknown) => (value === null ? 'z' : Array.isArray(value) ? 'a' : LETTERS[typeof value]);
const hasType = (type: TypeLetter, value: unknown) =>
  type === 'i' ? Number.isInteger(value) : type === 'n' ? Number.isFinite(value) : typeOf(value) === type;
/** A node as a schema (`'s'` → `{t: 's'}`; `p` implies `t: 'o'`). */
const schemaOf = (node: Node): Schema => (typeof node === 'string' ? { t: node } : node.p && !node.t ? { ...node, t: 'o' } : node);

/**
 * What a node without its own `s` says: its enum's values, or its type's sentence. The generator
 * (scripts/gen-guards.ts) leaves out a message that says exactly this.
 */
export const defaultMessage = (node: Node): string => {
  const s = schemaOf(node);
  return s.e ? `must be one of ${s.e.join(', ')}` : s.t === 's' ? 'must be a string' : s.t === 'b' ? 'must be true or false' : s.t === 'o' ? 'must be an object' : '';
};

/** The issues of `value` against `node` (empty when it conforms). */
export function check(node: Node, value: unknown, customs: Customs = {}, path: string[] = [], issues: GuardIssue[] = [], inherited?: string): GuardIssue[] {
  const s = schemaOf(node);
  const message = s.s ?? (inherited || defaultMessage(s));
  const count = issues.length;
  const fail = () => (issues.push({ path, message: message || 'is invalid' }), issues);
  // A child at the same path, an item or a record's value inherits this node's message; a property does not.
  const sub = (child: Node, v: unknown, at: string[], m = message) => check(child, v, customs, at, issues, m).length > count;
  const n = value as number;
  if (s.t && ![s.t].flat().some((type) => hasType(type, value))) return fail();
  if (('c' in s && value !== s.c) || (s.e && !s.e.includes(value)) || (s.u && !customs[s.u]?.(value))) return fail();
  if (typeof value === 'string' && (value.length < (s.m ?? 0) || value.length > (s.M ?? 1 / 0) || (s.x && !new RegExp(s.x).test(value)))) return fail();
  if (typeof value === 'number' && (n < (s.n ?? -1 / 0) || n > (s.N ?? 1 / 0) || n <= (s.g ?? -1 / 0) || n >= (s.G ?? 1 / 0))) return fail();
  const alternatives = s.y ?? s.o;
  if (alternatives) {
    const passing = alternatives.filter((alternative) => !check(alternative, value, customs).length).length;
    if (s.y ? !passing : passing !== 1) return fail();
  }
  for (const part of s.l ?? []) if (sub(part, value, path)) return issues;
  if (typeOf(value) === 'o') {
    const object = value as Record<string, unknown>;
    const names = new Set<string>();
    for (const [name, child] of Object.entries(s.p ?? {})) {
      const key = name.replace(/\?$/, '');
      names.add(key);
      if (object[key] !== undefined) sub(child, object[key], [...path, key], '');
      else if (key === name) issues.push({ path: [...path, key], message: schemaOf(child).s ?? (defaultMessage(child) || 'is required') });
    }
    const extra = Object.keys(object).filter((key) => !names.has(key));
    if (s.a === false && extra.length) issues.push({ path, message: message || 'has unknown keys', keys: extra });
    for (const key of extra) {
      if (s.k) sub(s.k, key, [...path, key]);
      if (typeof s.a === 'object' || typeof s.a === 'string') sub(s.a, object[key], [...path, key]);
    }
  }
  if (Array.isArray(value) && s.i) value.forEach((item, i) => sub(s.i!, item, [...path, String(i)]));
  return issues;
}

declare const shape: unique symbol;

/**
 * A generated guard (protocol/runtime/guards.ts): the compact schema of a zod schema, carrying that
 * schema's type (a type only: nothing at run time).
 */
export type Guard<T> = Schema & { readonly [shape]?: T };

/** True when `value` conforms to `guard`: narrows to the type of the schema the guard was generated from. */
export const conforms = <T>(guard: Guard<T>, value: unknown): value is T => !check(guard, value).length;

/** The names of an object guard's properties (without the `?` of the optional ones). */
export const propertyNames = (guard: Schema): string[] => Object.keys(guard.p ?? {}).map((name) => name.replace(/\?$/, ''));

/** Whether `key` names one of a table of guards (the bridge's EVENTS, PARAMS, RESULTS by name). */
export const hasGuard = <K extends string>(guards: Record<K, unknown>, key: string): key is K => Object.hasOwn(guards, key);
