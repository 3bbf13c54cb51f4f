/**
 * The rows of one index key, kept in sequence order. Sequence numbers only grow, so appends keep the
 * rows sorted and a cursor is found by binary search: a page costs the same at 100 rows and at
 * 100,000. A key that holds a single row (a unique index, such as a conversation by contact) keeps
 * the row itself rather than an array of one, so a million such keys cost a million Map entries and
 * nothing more.
 */
export interface Sequenced {
  id: string;
  _seq: number;
}

export type Bucket<T extends Sequenced> = T | T[];

const many = <T extends Sequenced>(bucket: Bucket<T>): bucket is T[] => Array.isArray(bucket);

/** The rows of a bucket, oldest first (a new array of one for a single row). */
export const rowsOf = <T extends Sequenced>(bucket: Bucket<T> | undefined): readonly T[] =>
  bucket === undefined ? [] : many(bucket) ? bucket : [bucket];

export const sizeOf = <T extends Sequenced>(bucket: Bucket<T> | undefined): number =>
  bucket === undefined ? 0 : many(bucket) ? bucket.length : 1;

export const firstOf = <T extends Sequenced>(bucket: Bucket<T> | undefined): T | undefined =>
  bucket === undefined ? undefined : many(bucket) ? bucket[0] : bucket;

/** Position of the first row whose sequence is >= seq. */
export function lowerBound<T extends Sequenced>(rows: readonly T[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]._seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first index of `rows` whose numeric `field` is at least `value` (`above`: more than it), in
 * rows where the field never goes down.
 */
export function firstAtLeast(rows: readonly object[], field: string, value: number, above = false): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = (rows[mid] as Record<string, number>)[field] ?? -Infinity;
    if (at < value || (above && at === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bucket with `row` added in sequence order. */
export function added<T extends Sequenced>(bucket: Bucket<T> | undefined, row: T): Bucket<T> {
  if (bucket === undefined) return row;
  const rows = many(bucket) ? bucket : [bucket];
  const last = rows[rows.length - 1];
  if (last._seq < row._seq) rows.push(row);
  else rows.splice(lowerBound(rows, row._seq), 0, row);
  return rows;
}

/** The bucket without `row` (undefined once empty). */
export function removed<T extends Sequenced>(bucket: Bucket<T>, row: T): Bucket<T> | undefined {
  if (!many(bucket)) return bucket.id === row.id ? undefined : bucket;
  const at = lowerBound(bucket, row._seq);
  if (bucket[at]?.id === row.id) bucket.splice(at, 1);
  return bucket.length === 0 ? undefined : bucket;
}

/** The bucket with the stored version of `row` (same id and sequence) replaced by `row`. */
export function replaced<T extends Sequenced>(bucket: Bucket<T>, row: T): Bucket<T> {
  if (!many(bucket)) return bucket.id === row.id ? row : bucket;
  const at = lowerBound(bucket, row._seq);
  if (bucket[at]?.id === row.id) bucket[at] = row;
  return bucket;
}
