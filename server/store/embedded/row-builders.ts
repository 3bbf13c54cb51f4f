/** A row shape of a version 3 snapshot: the collection and the keys, in order, of the rows written with it. */
export interface Shape {
  collection: Map<string, any>;
  /** Builds a row from `[shape, ...values]`. */
  make: (values: unknown[]) => { id: string };
  /** The previous row's values: a string equal to the one above it is shared rather than kept twice. */
  last: unknown[] | undefined;
}

/**
 * The row builder of a shape: one object literal with the shape's keys in order, so every row of the
 * shape has the same hidden class with its fields inside the object (two million rows cost two million
 * objects, not four, and seconds less on start). The keys are JSON string literals, safe in source;
 * `__proto__` (never a field of ours) would set the prototype in a literal, so such a shape is built by
 * defining each property, as JSON.parse makes it.
 */
export function builderOf(keys: string[]): Shape['make'] {
  if (keys.includes('__proto__')) {
    return (values) => {
      const row = {};
      for (let i = 0; i < keys.length; i++) Object.defineProperty(row, keys[i], { value: values[i + 1], enumerable: true, writable: true, configurable: true });
      return row as { id: string };
    };
  }
  return new Function('v', `return {${keys.map((key, i) => `${JSON.stringify(key)}: v[${i + 1}]`).join(', ')}};`) as Shape['make'];
}

/** Builds a row of `shape` from `[shape, ...values]`, sharing the strings equal to the previous row's. */
export function rowOf(shape: Shape, values: unknown[]): { id: string } {
  const last = shape.last;
  if (last !== undefined) {
    for (let i = 1; i < values.length; i++) if (typeof values[i] === 'string' && values[i] === last[i]) values[i] = last[i];
  }
  shape.last = values;
  return shape.make(values);
}
