import { Recent } from './recent.ts';

/**
 * JSON kept for objects that never change, so a list page is written from ready bytes rather than
 * serialised and encoded again on every read. Only values declared unchanging (frozen, and all they
 * hold too: the public views of the store's frozen rows) are kept, and only the recently read ones
 * (the JSON of a million rows would double the heap); the bytes are exactly JSON.stringify's, in UTF-8.
 */
const unchangingValues = new WeakSet<object>();
const texts = new Recent<object, Buffer>(10_000);

/** Declares `value` unchanging: it is frozen, and so is every object inside it. */
export function unchanging<T extends object>(value: T): T {
  if (!Object.isFrozen(value)) throw new Error('only a frozen value can be declared unchanging');
  unchangingValues.add(value);
  return value;
}

/** A value's JSON as JSON.stringify writes it, in UTF-8: kept for an unchanging one (an event, sent to every endpoint). */
export function itemBytes(item: unknown): Buffer {
  if (item !== null && typeof item === 'object' && unchangingValues.has(item)) {
    let bytes = texts.get(item);
    if (bytes === undefined) texts.set(item, (bytes = Buffer.from(JSON.stringify(item))));
    return bytes;
  }
  return Buffer.from(JSON.stringify(item) ?? 'null');
}

/** A list page as listEnvelope (form-values.ts) describes it, its keys in that order. */
export interface ListEnvelope {
  object: 'list';
  url: string;
  has_more: boolean;
  data: readonly unknown[];
}

const COMMA = Buffer.from(',');
const DATA_END = Buffer.from(']}');

/**
 * JSON.stringify(list) in UTF-8, its unchanging items from kept bytes: the page is copied together,
 * not encoded (nor its length measured) again. Used for the answers of the operations that declare
 * `keptListJson` (operation.ts), never chosen by the shape of a value.
 */
export function listJson(list: ListEnvelope): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"object":"list","url":${JSON.stringify(list.url)},"has_more":${list.has_more},"data":[`)];
  for (let i = 0; i < list.data.length; i++) {
    if (i) parts.push(COMMA);
    parts.push(itemBytes(list.data[i]));
  }
  parts.push(DATA_END);
  return Buffer.concat(parts);
}
