import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_SORT, type FolderSort, type SortField } from '../api/files';

/** The sortable columns as the page's address names them (`?sort=size&dir=desc`). */
const FIELD_OF: Readonly<Record<string, SortField>> = { name: 'path', size: 'size', modified: 'modified_at_datetime' };
const NAME_OF: Readonly<Record<SortField, string>> = { path: 'name', size: 'size', modified_at_datetime: 'modified' };

/**
 * The listing's order, kept in the address so that a reload, a bookmark or a shared link opens the
 * folder in the same order. By name, A to Z, is the default and leaves the address bare.
 */
export function useFolderSort(): { sort: FolderSort; toggle(field: SortField): void; choose(order: FolderSort): void } {
  const [params, setParams] = useSearchParams();
  const fieldParam = params.get('sort');
  const dirParam = params.get('dir');
  const sort = useMemo<FolderSort>(() => {
    const field = fieldParam !== null && Object.hasOwn(FIELD_OF, fieldParam) ? FIELD_OF[fieldParam] : undefined;
    if (field === undefined) return DEFAULT_SORT;
    return { field, direction: dirParam === 'desc' ? 'desc' : 'asc' };
  }, [fieldParam, dirParam]);

  const choose = useCallback(({ field, direction }: FolderSort) => {
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (field === DEFAULT_SORT.field && direction === DEFAULT_SORT.direction) {
        next.delete('sort');
        next.delete('dir');
      } else {
        next.set('sort', NAME_OF[field]);
        next.set('dir', direction);
      }
      return next;
    }, { replace: true });
  }, [setParams]);

  // The same column again reverses the order; another column starts A to Z (smallest, oldest first).
  const toggle = useCallback((field: SortField) => {
    choose({ field, direction: sort.field === field && sort.direction === 'asc' ? 'desc' : 'asc' });
  }, [sort, choose]);

  return { sort, toggle, choose };
}
