/** Rows in a page when a request names no page size (contract 1.3). */
export const DEFAULT_PER_PAGE = 1000;

/** One page of a listing ordered by a sort key, whatever protocol asked for it. */
export interface PageRequest<K> {
  limit: number;
  /** Sort key of the last row of the previous page; absent on the first page. */
  after: K | undefined;
}

/**
 * What an id-keyed repository query takes for a page: the rows after the cursor's id, one more than
 * the page, so that the caller can tell whether another page exists.
 */
export function idPageQuery(page: PageRequest<number>): { afterId: number; limit: number } {
  return { afterId: page.after ?? 0, limit: page.limit + 1 };
}
