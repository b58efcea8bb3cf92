import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { listFolder, type Entry, type FolderSort } from '../api/files';

export interface FolderState {
  entries: Entry[];
  loading: boolean;
  error: string | undefined;
  /** The folder is not there (or not for this person: the server answers both alike). */
  missing: boolean;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

/**
 * A folder's entries, one page at a time on the API's cursor: opening a folder of any size costs
 * one page, and the next page is asked for only when the person scrolls to it. The server sorts,
 * so a new sort starts again from the first page (a cursor holds the order it was made in).
 */
export function useFolder(path: string, sort: FolderSort): FolderState {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [missing, setMissing] = useState(false);
  const [generation, setGeneration] = useState(0);
  const inFlight = useRef<AbortController | undefined>(undefined);

  const load = useCallback((cursor: string | undefined, replace: boolean) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    setError(undefined);
    setMissing(false);
    listFolder(path, sort, cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setEntries((previous) => (replace ? page.entries : [...previous, ...page.entries]));
        setNext(page.next);
        setLoading(false);
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return;
        setError(caught instanceof Error ? caught.message : 'The folder could not be read.');
        setMissing(caught instanceof ApiError && caught.status === 404);
        setLoading(false);
      },
    );
  }, [path, sort]);

  // Another folder starts empty; the same folder in a new order keeps its rows until the new first
  // page replaces them, so the table (and the header button just pressed, with its focus) stays.
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current !== path) {
      shownPath.current = path;
      setEntries([]);
    }
    setNext(undefined);
    load(undefined, true);
    return () => inFlight.current?.abort();
  }, [load, generation]);

  return {
    entries,
    loading,
    error,
    missing,
    hasMore: next !== undefined,
    loadMore: () => {
      if (next !== undefined && !loading) load(next, false);
    },
    reload: () => setGeneration((g) => g + 1),
  };
}
