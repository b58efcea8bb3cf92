import { actsAtSiteLevel, assertMayManageGrantsOn, canSeeGrant, isInRequestWorkspace, mayNameGrantee, permissionReachOf, type Call } from '../access/index.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { deleteGrants, findGrant } from '../repositories/grants/index.js';
import { grantEvents } from './grant-history.js';

/**
 * DELETE /permissions/<id>. A grant the caller may not see, or one outside the request context,
 * is `not-found/permission-not-found` exactly like an unknown id. One it may see but not manage
 * is refused: whoever could create that grant now may delete it, so the caller needs authority
 * over its path (see assertMayManageGrantsOn) and, unless Site Administrator, the grantee must
 * belong to the path's Workspace: a cross-Workspace grant (a Workspace 0 user or group on a
 * Custom Workspace folder) is the Site Administrator's to remove, at the site level, even for the
 * Workspace Administrator it empowers. Deleting never restores grants this one replaced.
 */
export async function deleteGrant(call: Call, id: number): Promise<void> {
  const { db, caller } = call;
  const record = await findGrant(db, id);
  if (record === undefined || !isInRequestWorkspace(call.requestWorkspaceId, record.pathKey)) throw errors.permissionNotFound();
  const reach = await permissionReachOf(db, caller);
  if (!canSeeGrant(reach, record)) throw errors.permissionNotFound();
  if (!actsAtSiteLevel(caller)) {
    await assertMayManageGrantsOn(db, caller, { site: { path: record.path, key: record.pathKey, workspaceId: record.workspaceId }, recursive: record.recursive });
    if (!(await mayNameGrantee(db, caller, record))) throw errors.siteAdminRequired();
  }
  await inTransaction(db, async (tx) => {
    // Another request deleted (or replaced) it meanwhile: that one's change and record.
    if ((await deleteGrants(tx, [record.id])) === 0) throw errors.permissionNotFound();
    await recordHistory(tx, call, await grantEvents({ ...call, db: tx }, [{ action: 'permission_destroy', grant: record }]));
  });
}
