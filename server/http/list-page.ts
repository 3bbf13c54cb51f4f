import { invalidParam, noSuch } from './api-error.ts';
import { CursorNotFound, type Collection, type CursorList, type Page, type PageQuery, type RowFilter } from '../store/store.ts';

/** The page size of every list when `limit` is not given, as in the Stripe API. */
export const PAGE_SIZE = 10;

/** What a list's query carries of the cursor pagination (api/form-values.ts listQuery). */
export interface ListCursors {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

/**
 * A page of a list whose ids start `<prefix>_`. A cursor is a place in the list: a cursor of this
 * type pages from where it stands whether its object is live, deleted or another owner's (its id says
 * only when it was made), so a deleted cursor keeps a walk going; one of another type is a 404.
 */
export async function listPage<T extends { id: string }>(
  collection: Collection<T>,
  prefix: string,
  index: string,
  key: string,
  query: ListCursors,
  cursorList?: CursorList,
  filter?: RowFilter,
  range?: PageQuery['range'],
): Promise<Page<T>> {
  if (query.starting_after !== undefined && query.ending_before !== undefined) throw invalidParam('ending_before', 'Send at most one of starting_after and ending_before.');
  for (const [param, cursor] of [['starting_after', query.starting_after], ['ending_before', query.ending_before]] as const)
    if (cursor !== undefined && !cursor.startsWith(`${prefix}_`)) throw noSuch('object', cursor, param);
  try {
    return await collection.page(index, key, { limit: query.limit ?? PAGE_SIZE, startingAfter: query.starting_after, endingBefore: query.ending_before, ...(range ? { range } : {}) }, cursorList, filter);
  } catch (error) {
    if (error instanceof CursorNotFound) throw noSuch('object', error.cursor, error.param);
    throw error;
  }
}
