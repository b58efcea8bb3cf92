import { workspaceOfPath, type Grantee } from '../authz/index.js';
import { findGranteeGroups } from '../repositories/grants/index.js';
import { findUserById } from '../repositories/users.js';
import { findPartnerById } from '../repositories/partners.js';
import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { subjectOf } from './authority.js';
import { accountReach, actsAtSiteLevel } from './site-level.js';
import { decideOnPath } from './path-grants.js';
import type { SitePath } from './request-paths.js';

/** What a grant reaches: its path, and whether it reaches every descendant or only the path and its files. */
export interface GrantExtent {
  site: SitePath;
  recursive: boolean;
}

/**
 * Whether the caller may create or delete a grant reaching `extent` (contract 5.3), or throws. The
 * caller's own authority must cover everything the grant reaches, so delegation never hands out
 * more than the delegator holds:
 * - a Site Administrator (site_admin user, or a site-wide key) may, anywhere;
 * - the site root '' is the Site Administrator's alone: coverage is literal, so a grant there
 *   reaches into every Custom Workspace, and delegating across Workspaces is theirs only;
 * - a Workspace Administrator of the Workspace the path lies in may;
 * - a Folder Admin of the path may, but only through an admin grant lying in that same Workspace
 *   (an admin grant on the site root does not make anyone a delegator inside a Custom Workspace)
 *   that covers the whole extent: a recursive grant on the path or above covers any grant on the
 *   path, while a non-recursive one on the path itself covers only the path and the files directly
 *   in it, so its holder may hand out only non-recursive grants there. On a Workspace root that is
 *   what keeps a non-recursive root admin from making anyone (itself included) Workspace
 *   Administrator;
 * - anyone else gets `not-authorized/folder-admin-permission-required`.
 *
 * Decided by the engine on the path as a folder (grants apply to folders), from the caller's
 * grants on the path and its ancestors as they are now.
 */
export async function assertMayManageGrantsOn(db: Db, caller: Caller, extent: GrantExtent): Promise<void> {
  const { site } = extent;
  if (actsAtSiteLevel(caller)) return;
  if (site.key === '') {
    throw errors.siteAdminRequired();
  }
  // A confined Site Administrator's credential administers its home Workspace, and nothing else.
  if (caller.siteAdmin) {
    if (site.workspaceId === caller.homeWorkspaceId) return;
    throw errors.siteAdminRequired();
  }
  const user = caller.user;
  if (user === null) throw errors.folderAdminPermissionRequired();
  const subject = await subjectOf(db, user);
  const { decision, grants } = await decideOnPath(db, subject, { pathKey: site.key, type: 'directory' });
  if (decision.workspaceAdmin) return;
  const byId = new Map(grants.map((grant) => [grant.id, grant]));
  const folderAdminHere = decision.reasons.some((reason) => {
    if (reason.kind !== 'role' || reason.role !== 'folder_admin' || reason.source.kind !== 'grant') return false;
    const grant = byId.get(reason.source.permissionId);
    if (grant === undefined || workspaceOfPath(grant.pathKey) !== site.workspaceId) return false;
    // A grant that covers the path as a folder is on the path itself or is recursive; only a
    // recursive one reaches the descendants a recursive new grant would.
    return grant.recursive || !extent.recursive;
  });
  if (!folderAdminHere) throw errors.folderAdminPermissionRequired();
}

/**
 * Whether the caller may name the grant's grantee in the grant's Workspace (accountReach): a user
 * or groups of that Workspace, or of Workspace 0 at the site level only. A grantee that no longer
 * exists is named by nobody.
 */
export async function mayNameGrantee(db: Db, caller: Caller, grant: { workspaceId: number; grantee: Grantee }): Promise<boolean> {
  const memberOf = await granteeWorkspaces(db, grant.grantee);
  return memberOf.length > 0 && memberOf.every((workspaceId) => workspaceId !== undefined && accountReach(caller, workspaceId, grant.workspaceId) === 'yes');
}


/** The Workspaces a grantee belongs to: its user's, its groups', or its Partner's (none when it no longer exists). */
async function granteeWorkspaces(db: Db, grantee: Grantee): Promise<(number | undefined)[]> {
  switch (grantee.kind) {
    case 'user':
      return [(await findUserById(db, grantee.userId))?.workspaceId];
    case 'partner':
      return [(await findPartnerById(db, grantee.partnerId))?.workspaceId];
    case 'group':
      return (await findGranteeGroups(db, [grantee.groupId])).map((group) => group.workspaceId);
    case 'groups':
      return (await findGranteeGroups(db, grantee.groupIds)).map((group) => group.workspaceId);
  }
}
