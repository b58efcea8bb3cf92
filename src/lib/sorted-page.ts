/**
 * A page of a record listing in an order other than by id (`sort_by[name]=asc`): the rows after
 * the last one of the previous page, compared by the sorted value first and by id to break ties,
 * so the order is total and no row is skipped or repeated across pages.
 */
export type SortDirection = 'asc' | 'desc';

/** The value a row sorts by: text, a number (times in ms, flags as 0/1), or null for none. */
export type SortValue = string | number | null;

export interface SortedPageRequest<F extends string> {
  sort: { field: F; direction: SortDirection };
  /** The last row of the previous page; undefined on the first. */
  after: { value: SortValue; id: number } | undefined;
  limit: number;
}

/** A page by id as the older listings ask for one: the rows after `afterId` (0: from the first). */
export interface IdPageRequest {
  afterId: number;
  limit: number;
}

/** Either kind of page request as a sorted one: a page by id is a page in the order by id. */
export function asSortedPage<F extends string>(page: IdPageRequest | SortedPageRequest<F>): SortedPageRequest<F | 'id'> {
  if ('sort' in page) return page;
  return { sort: { field: 'id', direction: 'asc' }, after: page.afterId === 0 ? undefined : { value: page.afterId, id: page.afterId }, limit: page.limit };
}
