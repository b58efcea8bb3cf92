import { canonicalName } from './attribute-names.js';
import { scimErrors } from './scim-error.js';

/**
 * How an attribute's values are ordered (RFC 7644 3.4.2.3: by the attribute's type): text without
 * regard to case unless the attribute is case-exact, times by time, `false` before `true`. Ids are
 * whole numbers in Atrium and sort as numbers, so `sortBy=id` gives the order the list has anyway.
 */
export type SortKind = 'text' | 'caseExactText' | 'id' | 'dateTime' | 'boolean';

export interface ListSort {
  attribute: string;
  kind: SortKind;
  descending: boolean;
}

/**
 * The sort a list request asks for with `sortBy` and `sortOrder`, among the attributes a resource
 * sorts on (`sortable`, keyed by attribute path; a name may come with the resource's schema URN
 * before it). No `sortBy` is the list's own order, by id; `sortOrder` alone changes nothing.
 */
export function listSortOf(query: { sortBy?: string; sortOrder?: string }, sortable: Readonly<Record<string, SortKind>>, schema: string): ListSort | undefined {
  if (query.sortBy === undefined || query.sortBy === '') return undefined;
  const prefix = `${schema.toLowerCase()}:`;
  const asked = query.sortBy.toLowerCase().startsWith(prefix) ? query.sortBy.slice(prefix.length) : query.sortBy;
  const attribute = canonicalName(asked, Object.keys(sortable));
  if (!Object.hasOwn(sortable, attribute)) throw scimErrors.invalidValue(`Sorting by "${query.sortBy.slice(0, 100)}" is not supported; sort by one of ${Object.keys(sortable).join(', ')}.`);
  const order = (query.sortOrder ?? 'ascending').toLowerCase();
  if (order !== 'ascending' && order !== 'descending') throw scimErrors.invalidValue('"sortOrder" must be "ascending" or "descending".');
  return { attribute, kind: sortable[attribute] as SortKind, descending: order === 'descending' };
}

/**
 * The resources in the order asked for. A resource without a value for the attribute comes last
 * in ascending order and first in descending order; resources with equal values keep their order.
 */
export function sortedResources<T extends object>(resources: readonly T[], sort: ListSort | undefined): readonly T[] {
  if (sort === undefined) return resources;
  const keyed = resources.map((resource) => ({ resource, key: sortKey(valueAt(resource, sort.attribute), sort.kind) }));
  keyed.sort((x, y) => {
    if (x.key === undefined || y.key === undefined) return x.key === y.key ? 0 : (x.key === undefined) !== sort.descending ? 1 : -1;
    const order = x.key < y.key ? -1 : x.key > y.key ? 1 : 0;
    return sort.descending ? -order : order;
  });
  return keyed.map((entry) => entry.resource);
}

/**
 * The value at an attribute path, names compared without regard to case. A multi-valued attribute
 * gives its primary value, else its first, and a complex one its `value` (`emails` sorts by the
 * primary address).
 */
function valueAt(resource: unknown, path: string): unknown {
  let value = resource;
  for (const part of path.split('.')) {
    value = primaryOf(value);
    if (value === null || typeof value !== 'object') return undefined;
    const key = Object.keys(value).find((name) => name.toLowerCase() === part.toLowerCase());
    if (key === undefined) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  value = primaryOf(value);
  return value !== null && typeof value === 'object' ? (value as { value?: unknown }).value : value;
}

function primaryOf(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.find((item: { primary?: unknown } | null) => item?.primary === true) ?? value[0];
}

function sortKey(value: unknown, kind: SortKind): string | number | undefined {
  if (value === undefined || value === null) return undefined;
  switch (kind) {
    case 'text':
      return String(value).toLowerCase();
    case 'caseExactText':
      return String(value);
    case 'id':
      return Number(value);
    case 'dateTime':
      return Date.parse(String(value));
    case 'boolean':
      return value === true ? 1 : 0;
  }
}
