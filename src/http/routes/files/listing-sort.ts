import { Type } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { DEFAULT_LISTING_SORT, type ListingSort, type ListingSortField } from '../../../files/index.js';

/**
 * The wire names of the folder listing's sort fields: `modified_at_datetime` is the server's
 * `mtime`, `provided_modified_at` the client's time where one was given (`provided_mtime`), else
 * `mtime`, as the file protocols show an entry's time.
 */
const FIELDS: Readonly<Record<string, ListingSortField>> = {
  path: 'path',
  size: 'size',
  modified_at_datetime: 'mtime',
  provided_modified_at: 'provided_mtime',
};

export const SortByQuery = Type.Record(Type.String(), Type.String(), {
  description: 'one field and its direction, `sort_by[<field>]=asc|desc`: `path` (default, `asc`), `size`, `modified_at_datetime` or '
    + '`provided_modified_at` (the client\'s modification time, `mtime` where it gave none). Folders come first in every sort; ties are ordered by path.',
});

/**
 * `sort_by[size]=desc`, as the Files.com clients send it (one level of brackets on the query
 * string), read into a listing sort. One field at a time; the direction `asc` or `desc`, in any case.
 */
export function listingSortOf(sortBy: Record<string, string> | undefined): ListingSort {
  if (sortBy === undefined) return DEFAULT_LISTING_SORT;
  const given = Object.entries(sortBy);
  if (given.length === 0) return DEFAULT_LISTING_SORT;
  if (given.length > 1) throw errors.multipleSortParamsNotAllowed();
  const [name, rawDirection] = given[0] as [string, string];
  const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
  if (field === undefined) {
    throw errors.invalidSortField(`A folder listing cannot be sorted by "${name.slice(0, 100)}": sort by one of ${Object.keys(FIELDS).join(', ')}.`);
  }
  const direction = rawDirection.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw errors.paramsInvalid({ sort_by: [`the direction of ${name.slice(0, 100)} must be asc or desc`] });
  return { field, direction };
}
