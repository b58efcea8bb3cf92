import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Entry } from '../api/files';
import type { Selection } from './EntryTable';

/**
 * The ticked rows of the folder open, by path: emptied when another folder opens, and kept to
 * the rows still listed after a reload (a moved or deleted row is no longer ticked).
 */
export function useSelection(folder: string, entries: Entry[]): Selection & { clear(): void } {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setSelected(new Set()), [folder]);
  useEffect(() => {
    setSelected((current) => {
      if (current.size === 0) return current;
      const listed = new Set(entries.map((e) => e.path));
      const kept = [...current].filter((path) => listed.has(path));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [entries]);
  const toggle = useCallback((path: string) => setSelected((current) => {
    const next = new Set(current);
    if (!next.delete(path)) next.add(path);
    return next;
  }), []);
  const setAll = useCallback((paths: string[], on: boolean) => setSelected(on ? new Set(paths) : new Set()), []);
  const clear = useCallback(() => setSelected(new Set()), []);
  return useMemo(() => ({ selected, toggle, setAll, clear }), [selected, toggle, setAll, clear]);
}
