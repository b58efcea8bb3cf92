import { replacedGrantIds, type Level } from '../authz/index.js';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { Clock } from '../lib/time.js';
import { findGranteeGroups } from '../repositories/permission-grantees.js';
import { findUserById } from '../repositories/user-queries.js';
import {
  deletePermissions,
  existingSpelling,
  findPermission,
  granteeGrantsAtOrBelow,
  insertPermission,
  toEngineGrant,
  type PermissionRecord,
} from '../repositories/permissions.js';
import { workspaceExists } from '../repositories/workspaces.js';
import { grantableSitePath, isInRequestWorkspace, type SitePath } from '../access/index.js';
import { assertMayManageGrantsOn } from '../access/index.js';
import { parseGranteeInput, resolveGrantee, type GranteeFields } from './grantees.js';
import { canSeeGrant, permissionReachOf } from '../access/index.js';

export interface CreatePermissionInput extends GranteeFields {
  path: string;
  permission: Level;
  recursive?: boolean;
  workspace_id?: number;
}

export interface CreatedPermission {
  permission: PermissionRecord;
  replacedIds: number[];
}

/**
 * POST /permissions (contract 5.2, 5.3). Checks run from the cheapest and least revealing to the
 * most: input shape, path, membership field, the caller's authority over the path, then the
 * grantee. Authority comes before the grantee so that a caller without authority learns nothing
 * about which users or groups exist. The insert and the replacement of the grants it subsumes are
 * one transaction.
 */
export async function createPermission(
  db: Db,
  clock: Clock,
  caller: Caller,
  requestWorkspaceId: number,
  input: CreatePermissionInput,
): Promise<CreatedPermission> {
  const granteeInput = parseGranteeInput(input);
  const site = grantableSitePath(requestWorkspaceId, input.path);
  assertMembershipField(input.workspace_id, requestWorkspaceId, site);
  await assertMayManageGrantsOn(db, caller, site);
  // Only a Site Administrator gets this far for a Workspace id that does not exist (nobody else
  // can hold authority in it), so answering not-found here reveals nothing to anyone else.
  if (!(await pathWorkspaceExists(db, site.workspaceId))) throw errors.workspaceNotFound();
  const grantee = await resolveGrantee(db, granteeInput, site.workspaceId, caller.siteAdmin);
  const recursive = input.recursive ?? true;
  const path = (await existingSpelling(db, site.key)) ?? site.path;

  return db.transaction().execute(async (tx) => {
    const created = await insertPermission(tx, {
      workspaceId: site.workspaceId,
      path,
      pathKey: site.key,
      grantee,
      level: input.permission,
      recursive,
      now: clock.now(),
    });
    const candidates = await granteeGrantsAtOrBelow(tx, grantee, site.key, recursive);
    const replacedIds = replacedGrantIds(toEngineGrant(created), candidates.map(toEngineGrant));
    await deletePermissions(tx, replacedIds);
    return { permission: created, replacedIds };
  });
}

// Workspace ids are 32-bit integers in the database; a larger one (`_/Workspaces/99999999999`) names
// no Workspace, and PostgreSQL would refuse to even compare it with the column.
const MAX_WORKSPACE_ID = 2_147_483_647;

async function pathWorkspaceExists(db: Db, workspaceId: number): Promise<boolean> {
  if (workspaceId === 0) return true;
  return workspaceId <= MAX_WORKSPACE_ID && (await workspaceExists(db, workspaceId));
}

/**
 * The `workspace_id` membership field (contract 4.2). A grant belongs to the Workspace its path
 * lies in, so the field can only confirm that: in a Custom Workspace context it defaults to the
 * context, and in context 0 to the Workspace of the (qualified) path. Any other value asks for a
 * membership the grant cannot have: `not-authorized/insufficient-permission-for-params`.
 */
function assertMembershipField(workspaceId: number | undefined, requestWorkspaceId: number, site: SitePath): void {
  if (workspaceId === undefined) return;
  if (requestWorkspaceId !== 0 && workspaceId !== requestWorkspaceId) {
    throw errors.insufficientPermissionForParams(`workspace_id ${workspaceId} does not match the selected Workspace ${requestWorkspaceId}.`);
  }
  if (workspaceId !== site.workspaceId) {
    throw errors.insufficientPermissionForParams(`workspace_id ${workspaceId} does not match Workspace ${site.workspaceId}, where the path lies.`);
  }
}

/**
 * DELETE /permissions/<id>. A grant the caller may not see, or one outside the request context,
 * is `not-found/permission-not-found` exactly like an unknown id. One it may see but not manage
 * is refused: whoever could create that grant now may delete it, so the caller needs authority
 * over its path (see assertMayManageGrantsOn) and, unless Site Administrator, the grantee must
 * belong to the path's Workspace: a cross-Workspace grant (a Workspace 0 user or group on a
 * Custom Workspace folder) is the Site Administrator's to remove, even for the Workspace
 * Administrator it empowers. Deleting never restores grants this one replaced.
 */
export async function deletePermission(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<void> {
  const record = await findPermission(db, id);
  if (record === undefined || !isInRequestWorkspace(requestWorkspaceId, record.pathKey)) throw errors.permissionNotFound();
  const reach = await permissionReachOf(db, caller);
  if (!canSeeGrant(reach, record)) throw errors.permissionNotFound();
  if (!caller.siteAdmin) {
    await assertMayManageGrantsOn(db, caller, { path: record.path, key: record.pathKey, workspaceId: record.workspaceId });
    if (!(await granteeBelongsTo(db, record, record.workspaceId))) throw errors.siteAdminRequired();
  }
  await deletePermissions(db, [record.id]);
}

async function granteeBelongsTo(db: Db, record: PermissionRecord, workspaceId: number): Promise<boolean> {
  const grantee = record.grantee;
  switch (grantee.kind) {
    case 'user':
      return (await findUserById(db, grantee.userId))?.workspaceId === workspaceId;
    case 'group':
      return (await findGranteeGroups(db, [grantee.groupId]))[0]?.workspaceId === workspaceId;
    case 'groups': {
      const groups = await findGranteeGroups(db, grantee.groupIds);
      return groups.length > 0 && groups.every((group) => group.workspaceId === workspaceId);
    }
  }
}
