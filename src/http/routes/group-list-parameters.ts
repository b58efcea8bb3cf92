import type { GroupFilter, GroupSortField } from '../../directory/index.js';
import type { ListParameterSpec, ListParameters } from '../list-parameters.js';
import type { ListingOrder } from '../sorted-cursor.js';

/**
 * GET /groups's list parameters, as the Files.com SDKs document them (`workspace_id` from the
 * SDKs that know Workspaces). `site_id` sorts as the listing's own order, since every group is of
 * the one site.
 */
export const GROUP_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'groups',
  sortable: ['name', 'workspace_id', 'site_id'],
  equals: { name: 'text', workspace_id: 'workspace' },
  prefix: ['name'],
  ranges: {},
  notOffered: {},
};

export const GROUPS_BY_ID: ListingOrder<GroupSortField> = { field: 'id', direction: 'asc' };

/** The order a GET /groups asks for; undefined for the listing's own (by id). */
export function groupOrderOf(parameters: ListParameters): ListingOrder<GroupSortField> | undefined {
  const sort = parameters.sort;
  if (sort === undefined) return undefined;
  return { field: sort.field === 'site_id' ? 'id' : (sort.field as GroupSortField), direction: sort.direction };
}

export function groupFilterOf(parameters: ListParameters, ids: readonly number[] | undefined): GroupFilter {
  const { equals, prefix } = parameters;
  const filter: GroupFilter = {};
  if (equals.name !== undefined) filter.name = equals.name as string;
  if (equals.workspace_id !== undefined) filter.workspaceId = equals.workspace_id as number;
  if (prefix.name !== undefined) filter.namePrefix = prefix.name;
  if (ids !== undefined) filter.ids = ids;
  return filter;
}
