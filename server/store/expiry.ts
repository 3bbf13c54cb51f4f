import type { IndexedCollection } from './indexed-collection.ts';
import type { IndexSpec, Row } from './store.ts';

const HOUR = 3600;

/**
 * An index of rows by the hour in which they may be dropped (undefined: kept for ever). Pruning then
 * takes whole past hours, newest row first, so each delete is at the end of its bucket and costs
 * O(1) instead of shifting every later row: pruning costs what it removes, not what is kept.
 */
export const expiryIndex = <T extends Row>(dropAfter: (row: T) => number | undefined): IndexSpec<T> => ({
  expiry: (row) => {
    const at = dropAfter(row);
    return at === undefined ? undefined : String(Math.floor(at / HOUR));
  },
});

/** Deletes every row whose drop hour has wholly passed by `now`; returns how many. */
export function pruneExpired<T extends Row>(collection: IndexedCollection<T>, now: number): number {
  const current = Math.floor(now / HOUR);
  let deleted = 0;
  for (const key of [...collection.keys('expiry')]) {
    if (Number(key) >= current) continue;
    const rows = collection.find('expiry', key);
    for (let i = rows.length - 1; i >= 0; i--) {
      collection.delete(rows[i].id);
      deleted++;
    }
  }
  return deleted;
}
