import { useCallback, useEffect, useRef, useState } from 'react';
import { listHistory, type HistoryQuery, type HistoryRecord } from '../api/history';

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
  const [records, setRecords] = useState<HistoryRecord[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [generation, setGeneration] = useState(0);
  const inFlight = useRef<AbortController | undefined>(undefined);
  // The query as a value: a new object for the same view asks nothing again.
  const key = JSON.stringify(query);

  const load = useCallback((cursor: string | undefined) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    setError(undefined);
    listHistory(JSON.parse(key) as HistoryQuery, cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setRecords((previous) => (cursor === undefined ? page.records : [...previous, ...page.records]));
        setNext(page.next);
        setLoading(false);
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return;
        setError(caught instanceof Error ? caught.message : 'The history could not be read.');
        setLoading(false);
      },
    );
  }, [key]);

  useEffect(() => {
    setRecords([]);
    setNext(undefined);
    load(undefined);
    return () => inFlight.current?.abort();
  }, [load, generation]);

  return {
    records,
    loading,
    error,
    hasMore: next !== undefined,
    loadMore: () => {
      if (next !== undefined && !loading) load(next);
    },
    reload: () => setGeneration((g) => g + 1),
  };
}
