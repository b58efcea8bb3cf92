import { useCallback } from 'react';
import { listHistory, type HistoryQuery, type HistoryRecord } from '../api/history';
import { useCursorPages } from '../paging/useCursorPages';

export interface HistoryState {
  records: HistoryRecord[];
  loading: boolean;
  error: string | undefined;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

/**
 * The records of a view, one page at a time on the API's cursor (`X-<Brand>-Cursor-Next`): a site
 * with millions of records opens as fast as a new one. A new view starts from its first page, since
 * a cursor belongs to the query it was handed out for.
 */
export function useHistory(query: HistoryQuery): HistoryState {
  // The query as a value: a new object for the same view asks nothing again.
  const key = JSON.stringify(query);
  const fetchPage = useCallback(async (cursor: string | undefined, signal: AbortSignal) => {
    const page = await listHistory(JSON.parse(key) as HistoryQuery, cursor, signal);
    return { items: page.records, next: page.next };
  }, [key]);
  const { items, loading, error, hasMore, loadMore, reload } = useCursorPages(fetchPage, 'The history could not be read.');
  return { records: items, loading, error, hasMore, loadMore, reload };
}
