import type { AdminRole, Capability } from '../authz/index.js';
import type { AccessSnapshot, ReviewScope, UserAccess } from './snapshot.js';

/** One user's access on one path, before and after a change, with what it gains and loses. */
export interface AccessChange {
  user_id: number;
  username: string | null;
  /** The qualified site path; front doors show it as the request context does. */
  path: string;
  capabilities_before: readonly Capability[];
  capabilities_after: readonly Capability[];
  gained: readonly Capability[];
  lost: readonly Capability[];
  roles_gained: readonly AdminRole[];
  roles_lost: readonly AdminRole[];
}

const NOTHING: UserAccess = { capabilities: [], roles: [] };

/**
 * The effective-access difference between two snapshots of the same scope: every (user, path)
 * whose capabilities or roles changed, users in id order, paths in scope order. Access a user
 * keeps through another grant stays out of `lost` (rule 6: independent grants stay).
 */
export function accessDifference(scope: ReviewScope, before: AccessSnapshot, after: AccessSnapshot, usernames: ReadonlyMap<number, string>): AccessChange[] {
  const changes: AccessChange[] = [];
  for (const userId of [...new Set(scope.userIds)].sort((a, b) => a - b)) {
    for (const { key, path } of scope.paths) {
      const was = before.get(userId)?.get(key) ?? NOTHING;
      const is = after.get(userId)?.get(key) ?? NOTHING;
      const gained = is.capabilities.filter((c) => !was.capabilities.includes(c));
      const lost = was.capabilities.filter((c) => !is.capabilities.includes(c));
      const rolesGained = is.roles.filter((r) => !was.roles.includes(r));
      const rolesLost = was.roles.filter((r) => !is.roles.includes(r));
      if (gained.length + lost.length + rolesGained.length + rolesLost.length === 0) continue;
      changes.push({
        user_id: userId,
        username: usernames.get(userId) ?? null,
        path,
        capabilities_before: was.capabilities,
        capabilities_after: is.capabilities,
        gained,
        lost,
        roles_gained: rolesGained,
        roles_lost: rolesLost,
      });
    }
  }
  return changes;
}
