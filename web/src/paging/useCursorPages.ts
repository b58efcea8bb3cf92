import { useCallback, useEffect, useRef, useState } from 'react';

/** One page of a list the API hands out on its cursor (`X-<Brand>-Cursor`): none after the last. */
export interface CursorPage<T> {
  items: T[];
  next: string | undefined;
}

export interface CursorPages<T> {
  items: T[];
  loading: boolean;
  error: string | undefined;
  hasMore: boolean;
  loadMore(): void;
  /** Starts again from the first page. */
  reload(): void;
  /** Changes the rows shown without asking again (a row the person removed). */
  update(change: (items: T[]) => T[]): void;
}

/**
 * A list read one page at a time on the API's cursor: a list of any length opens as fast as a short
 * one, and the next page is asked for only when the person wants it. A new `fetchPage` (a new query)
 * starts again from an empty list, since a cursor belongs to the query it was handed out for; an
 * answer for a query or page no longer wanted is dropped.
 */
export function useCursorPages<T>(
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<CursorPage<T>>,
  failure: string,
): CursorPages<T> {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [generation, setGeneration] = useState(0);
  const inFlight = useRef<AbortController | undefined>(undefined);

  const load = useCallback((cursor: string | undefined) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    setError(undefined);
    fetchPage(cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setItems((previous) => (cursor === undefined ? page.items : [...previous, ...page.items]));
        setNext(page.next);
        setLoading(false);
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return;
        setError(caught instanceof Error ? caught.message : failure);
        setLoading(false);
      },
    );
  }, [fetchPage, failure]);

  useEffect(() => {
    setItems([]);
    setNext(undefined);
    load(undefined);
    return () => inFlight.current?.abort();
  }, [load, generation]);

  return {
    items,
    loading,
    error,
    hasMore: next !== undefined,
    loadMore: () => {
      if (next !== undefined && !loading) load(next);
    },
    reload: () => setGeneration((g) => g + 1),
    update: setItems,
  };
}
