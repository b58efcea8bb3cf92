import { workspaceOfPath } from '../authz/index.js';
import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { subjectOf } from './authority.js';
import { decideOnPath } from './path-grants.js';
import type { SitePath } from './request-paths.js';

/**
 * Whether the caller may create or delete grants on `site` (contract 5.3), or throws:
 * - a Site Administrator (site_admin user, or a site-wide key) may, anywhere;
 * - the site root '' is the Site Administrator's alone: coverage is literal, so a grant there
 *   reaches into every Custom Workspace, and delegating across Workspaces is theirs only;
 * - a Workspace Administrator of the Workspace the path lies in may;
 * - a Folder Admin of the path may, but only through an admin grant lying in that same Workspace
 *   (an admin grant on the site root does not make anyone a delegator inside a Custom Workspace);
 * - anyone else gets `not-authorized/folder-admin-permission-required`.
 *
 * Decided by the engine on the path as a folder (grants apply to folders), from the caller's
 * grants on the path and its ancestors as they are now.
 */
export async function assertMayManageGrantsOn(db: Db, caller: Caller, site: SitePath): Promise<void> {
  if (caller.siteAdmin) return;
  if (site.key === '') {
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
    return grant !== undefined && workspaceOfPath(grant.pathKey) === site.workspaceId;
  });
  if (!folderAdminHere) throw errors.folderAdminPermissionRequired();
}
