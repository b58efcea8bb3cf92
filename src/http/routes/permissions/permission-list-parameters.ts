import type { GrantListFilter } from '../../../grants/index.js';
import type { ListParameterSpec, ListParameters } from '../../list-parameters.js';

/**
 * GET /permissions's list parameters, as the Files.com SDKs document them. `filter[path]` is the
 * grants on exactly that path, as the SDKs' filter is equality; the plain `path` parameter is the
 * grants that cover it (on it, or on an ancestor that reaches it). `site_id` sorts as the
 * listing's own order, since every grant is of the one site.
 */
export const PERMISSION_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'permissions',
  sortable: ['id', 'path', 'user_id', 'group_id', 'partner_id', 'site_id'],
  equals: { path: 'text', user_id: 'id', group_id: 'id', partner_id: 'id' },
  prefix: ['path'],
  ranges: {},
  notOffered: {},
};

/** The plain parameters and the `filter[...]` ones together; the same field in both must agree. */
export function grantFilterOf(
  parameters: ListParameters,
  plain: { user_id?: number | undefined; group_id?: number | undefined; partner_id?: number | undefined; path?: string | undefined; include_groups?: boolean | undefined },
): GrantListFilter {
  const { equals, prefix } = parameters;
  const filter: GrantListFilter = { includeGroups: plain.include_groups === true };
  const userId = plain.user_id ?? (equals.user_id as number | undefined);
  const groupId = plain.group_id ?? (equals.group_id as number | undefined);
  if (userId !== undefined) filter.userId = userId;
  if (groupId !== undefined) filter.groupId = groupId;
  const partnerId = plain.partner_id ?? (equals.partner_id as number | undefined);
  if (partnerId !== undefined) filter.partnerId = partnerId;
  if (plain.path !== undefined) filter.path = plain.path;
  if (equals.path !== undefined) filter.exactPath = equals.path as string;
  if (prefix.path !== undefined) filter.pathPrefix = prefix.path;
  return filter;
}
