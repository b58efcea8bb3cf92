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
