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

/**
 * JSON.stringify(value) for a list envelope (`{ object: 'list', url, has_more, data }`, in that
 * order, as listEnvelope describes it), its unchanging items from kept text; undefined for any other value.
 */
export function listJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 4 || keys[0] !== 'object' || keys[1] !== 'url' || keys[2] !== 'has_more' || keys[3] !== 'data') return undefined;
  const list = value as { object: unknown; url: unknown; has_more: unknown; data: unknown };
  if (list.object !== 'list' || typeof list.url !== 'string' || typeof list.has_more !== 'boolean' || !Array.isArray(list.data)) return undefined;
  let items = '';
  for (let i = 0; i < list.data.length; i++) items += (i ? ',' : '') + itemText(list.data[i]);
  return `{"object":"list","url":${JSON.stringify(list.url)},"has_more":${list.has_more},"data":[${items}]}`;
}
