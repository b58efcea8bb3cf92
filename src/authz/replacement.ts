import { isSubsetMask, levelMask, partnerMayHold } from './levels.js';
import { workspaceAdminGrantWorkspace } from './roles.js';
import { isStrictAncestor } from './site-paths.js';
import type { Grant, Grantee } from './types.js';

/** Same user, same group, same Partner, or the same set of groups (order and repeats do not matter). */
export function sameGrantee(a: Grantee, b: Grantee): boolean {
  switch (a.kind) {
    case 'user':
      return b.kind === 'user' && a.userId === b.userId;
    case 'group':
      return b.kind === 'group' && a.groupId === b.groupId;
    case 'partner':
      return b.kind === 'partner' && a.partnerId === b.partnerId;
    case 'groups': {
      if (b.kind !== 'groups') return false;
      const left = new Set(a.groupIds);
      const right = new Set(b.groupIds);
      return left.size === right.size && [...left].every((groupId) => right.has(groupId));
    }
    default:
      return false;
  }
}

/**
 * The ids of existing grants that a newly created grant replaces (contract 5.2): same grantee; on
 * the same path, or on a descendant when the new grant is recursive; capabilities a subset of the
 * new grant's; and not recursive where the new one is not. Such a grant adds nothing the new one
 * does not give, so deleting it never takes access away. Ids ascending.
 *
 * `existing` should hold the same grantee's grants; any other grantee's grant is still skipped,
 * because replacing it would delete somebody else's access.
 */
export function replacedGrantIds(created: Grant, existing: readonly Grant[]): number[] {
  // A Partner grant of a level no Partner may hold matches nobody: it gives nothing, so it replaces nothing.
  if (created.grantee.kind === 'partner' && !partnerMayHold(created.level)) return [];
  const createdMask = levelMask(created.level);
  return existing
    .filter((grant) => {
      if (grant.id === created.id || !sameGrantee(grant.grantee, created.grantee)) return false;
      const samePath = grant.pathKey === created.pathKey;
      const below = created.recursive && isStrictAncestor(created.pathKey, grant.pathKey);
      if (!samePath && !below) return false;
      if (!isSubsetMask(levelMask(grant.level), createdMask)) return false;
      if (grant.recursive && !created.recursive) return false;
      // A Workspace root grant also makes its grantee Workspace Administrator, which no grant on
      // another path gives (an admin grant on '_/workspaces' or '' only makes a Folder Admin).
      // Only an equal grant on the root itself subsumes it; otherwise the role would be lost.
      if (workspaceAdminGrantWorkspace(grant) !== null && !samePath) return false;
      return true;
    })
    .map((grant) => grant.id)
    .sort((a, b) => a - b);
}
