import type { GroupFilter } from '../../directory/index.js';
import type { ListParameterSpec, ListParameters } from '../list-parameters.js';

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

export function groupFilterOf(parameters: ListParameters, ids: readonly number[] | undefined): GroupFilter {
  const { equals, prefix } = parameters;
  const filter: GroupFilter = {};
  if (equals.name !== undefined) filter.name = equals.name as string;
  if (equals.workspace_id !== undefined) filter.workspaceId = equals.workspace_id as number;
  if (prefix.name !== undefined) filter.namePrefix = prefix.name;
  if (ids !== undefined) filter.ids = ids;
  return filter;
}
