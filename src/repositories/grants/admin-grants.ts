import type { Db } from '../../db/database.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';
import { inWorkspaceByOtherIndexes } from './grant-conditions.js';
import { grantNamesAnyOf, type GranteeSet } from './grantee-set.js';

/**
 * `admin` grants naming someone in `grantees` (the caller lets the engine decide which match), on
 * any path or only in one Workspace: where a user may hold Workspace Administrator or Folder Admin
 * authority. Indexed by grantee, so bounded by the user's grants.
 */
export async function adminGrantsNaming(db: Db, grantees: GranteeSet, options: { inWorkspace?: number } = {}): Promise<GrantRecord[]> {
  let query = db.selectFrom('permissions').select(GRANT_COLUMNS).where(grantNamesAnyOf(grantees)).where('permission', '=', 'admin');
  if (options.inWorkspace !== undefined) query = query.where(inWorkspaceByOtherIndexes(options.inWorkspace));
  return toGrantRecords(db, await query.execute());
}
