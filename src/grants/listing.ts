import { coverageOf, type EntryType } from '../authz/index.js';
import {
  findVisiblePartner, granteeSetOf, isInRequestWorkspace, listVisibility, mayListGroup, mayListUser, permissionReachIn, selfAndAncestorKeys, sitePathOfCall, subjectOf,
  type Call,
} from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import { entryTypeAt } from '../repositories/entries.js';
import { findGranteeGroups, grantPage, type GranteeSet, type GrantRecord, type GrantSortField } from '../repositories/grants/index.js';
import { findUserById } from '../repositories/users.js';

export interface GrantListFilter {
  userId?: number;
  groupId?: number;
  /** Grants to this Partner. */
  partnerId?: number;
  /** Grants that cover this path: on it, or on an ancestor whose grant reaches it. */
  path?: string;
  /** Grants on exactly this path. */
  exactPath?: string;
  /** Grants whose path starts with this text. */
  pathPrefix?: string;
  includeGroups?: boolean;
}

/**
 * GET /permissions (contract 5.4): one page (up to `limit + 1` rows, by id) of the grants in the
 * request context the caller may see, narrowed by the filters, which all apply together.
 * - `user_id`: that user's direct grants; with `include_groups`, also its groups' grants and the
 *   ALL-of grants it satisfies. Naming a user the caller may not list is `not-found/user-not-found`.
 * - `group_id`: grants to that group (not ALL-of grants that merely list it); a group out of
 *   reach is `not-found/group-not-found`.
 * - `partner_id`: grants to that Partner; a Partner the caller may not see is `not-found`.
 * - `path`: grants on the path and on its ancestors (within the context) that cover it.
 */
export async function listGrants(call: Call, filter: GrantListFilter, page: SortedPageRequest<GrantSortField>): Promise<readonly GrantRecord[]> {
  const { db, caller, requestWorkspaceId } = call;
  const reach = await permissionReachIn(db, caller, requestWorkspaceId);
  let grantees: GranteeSet | undefined;
  if (filter.userId !== undefined) {
    const user = await findUserById(db, filter.userId);
    if (user === undefined || !mayListUser(reach, requestWorkspaceId, user)) throw errors.userNotFound();
    grantees = filter.includeGroups === true
      ? await granteeSetOf(db, await subjectOf(db, user))
      : { userId: user.id, groupIds: [], allOfGrantIds: [] };
  }
  if (filter.groupId !== undefined) {
    const group = (await findGranteeGroups(db, [filter.groupId]))[0];
    if (group === undefined || !mayListGroup(reach, requestWorkspaceId, group)) throw errors.groupNotFound();
  }
  // Its own Partner's grants are a Partner user's own grants; any other Partner must be one the caller sees.
  if (filter.partnerId !== undefined && caller.user?.partnerId !== filter.partnerId) await findVisiblePartner(db, caller, requestWorkspaceId, filter.partnerId);
  return grantPage(db, {
    workspaceId: requestWorkspaceId === 0 ? null : requestWorkspaceId,
    visibility: listVisibility(reach, requestWorkspaceId),
    ...(grantees === undefined ? {} : { grantees }),
    ...(filter.groupId === undefined ? {} : { groupId: filter.groupId }),
    ...(filter.partnerId === undefined ? {} : { partnerId: filter.partnerId }),
    ...(filter.path === undefined ? {} : { covering: await coveringKeys(call, filter.path) }),
    ...(filter.exactPath === undefined ? {} : { pathKey: sitePathOfCall(call, filter.exactPath).key }),
    ...(filter.pathPrefix === undefined ? {} : { pathKeyPrefix: pathKeyPrefixOf(call, filter.pathPrefix) }),
    page: { ...page, limit: page.limit + 1 },
  });
}

/**
 * The key text a path prefix becomes: the prefix's own key (a partial last name stays partial, so
 * `Pla` finds `Plans` and `Places/x`), with a trailing `/` kept so that `Plans/` finds what is
 * inside Plans and not Plans itself. The empty prefix is the context's root, which every grant of
 * the context starts with.
 */
function pathKeyPrefixOf(call: Call, prefix: string): string {
  const inside = prefix.endsWith('/') && prefix.length > 1;
  const key = sitePathOfCall(call, inside ? prefix.slice(0, -1) : prefix).key;
  return inside ? `${key}/` : key;
}

/**
 * The (path, recursive) combinations whose grants cover `path`, as the engine's coverage rule
 * gives them: the path itself, a recursive grant on any ancestor, and any grant on the parent
 * when the target is a file. Only paths the context can name are asked for. A path with no entry
 * is taken as a file, as explain does.
 */
async function coveringKeys(call: Call, input: string): Promise<{ anyKeys: string[]; recursiveKeys: string[] }> {
  const { db, requestWorkspaceId } = call;
  const site = sitePathOfCall(call, input);
  const type: EntryType = (await entryTypeAt(db, site.key)) ?? 'file';
  const target = { pathKey: site.key, type };
  const anyKeys: string[] = [];
  const recursiveKeys: string[] = [];
  for (const key of selfAndAncestorKeys(site.key)) {
    if (!isInRequestWorkspace(requestWorkspaceId, key)) continue;
    if (coverageOf({ pathKey: key, recursive: false }, target) === 'covers') anyKeys.push(key);
    else if (coverageOf({ pathKey: key, recursive: true }, target) === 'covers') recursiveKeys.push(key);
  }
  return { anyKeys, recursiveKeys };
}
