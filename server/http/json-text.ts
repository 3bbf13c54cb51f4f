import { Recent } from './recent.ts';

/**
 * JSON text kept for objects that never change, so a list page is written from ready text rather than
 * serialised again on every read. Only values declared unchanging (frozen, and all they hold too: the
 * public views of the store's frozen rows) are kept, and only the recently read ones (the text of a
 * million rows would double the heap); the text is exactly JSON.stringify's.
 */
const unchangingValues = new WeakSet<object>();
const texts = new Recent<object, string>(10_000);

/** Declares `value` unchanging: it is frozen, and so is every object inside it. */
export function unchanging<T extends object>(value: T): T {
  if (!Object.isFrozen(value)) throw new Error('only a frozen value can be declared unchanging');
  unchangingValues.add(value);
  return value;
}

/** An item's JSON as JSON.stringify writes it inside an array. */
function itemText(item: unknown): string {
  if (item !== null && typeof item === 'object' && unchangingValues.has(item)) {
    let text = texts.get(item);
    if (text === undefined) texts.set(item, (text = JSON.stringify(item)));
    return text;
  }
  return JSON.stringify(item) ?? 'null';
}

/** A list page as listEnvelope (form-values.ts) describes it, its keys in that order. */
export interface ListEnvelope {
  object: 'list';
  url: string;
  has_more: boolean;
  data: readonly unknown[];
}

/**
 * JSON.stringify(list), its unchanging items from kept text. Used for the answers of the operations
 * that declare `keptListJson` (operation.ts), never chosen by the shape of a value.
 */
export function listJson(list: ListEnvelope): string {
  let items = '';
  for (let i = 0; i < list.data.length; i++) items += (i ? ',' : '') + itemText(list.data[i]);
  return `{"object":"list","url":${JSON.stringify(list.url)},"has_more":${list.has_more},"data":[${items}]}`;
}
