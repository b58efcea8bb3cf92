import type { Db } from '../../db/database.js';
import { cachedRead, rowsPolicy } from '../../db/read-cache.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';
import { inWorkspaceByOtherIndexes } from './grant-conditions.js';
import { grantNamesAnyOf, type GranteeSet } from './grantee-set.js';

/**
 * `admin` grants naming someone in `grantees` (the caller lets the engine decide which match), on
 * any path or only in one Workspace: where a user may hold Workspace Administrator or Folder Admin
 * authority. Indexed by grantee, so bounded by the user's grants. Every grant listing works out
 * its caller's reach from these, so they are cached until the data changes (db/read-cache.ts).
 */
export async function adminGrantsNaming(db: Db, grantees: GranteeSet, options: { inWorkspace?: number } = {}): Promise<readonly GrantRecord[]> {
  const key = `${grantees.userId}\u0000${grantees.groupIds.join(',')}\u0000${grantees.allOfGrantIds.join(',')}\u0000${options.inWorkspace ?? ''}`;
  return cachedRead(db, 'admin-grants-naming', key, async () => Object.freeze(await loadAdminGrants(db, grantees, options)), ADMIN_GRANTS_POLICY);
}

/** Cached admin grants hold at most this many grants in all. */
const ADMIN_GRANTS_POLICY = rowsPolicy<readonly GrantRecord[]>(100_000);

async function loadAdminGrants(db: Db, grantees: GranteeSet, options: { inWorkspace?: number }): Promise<GrantRecord[]> {
  let query = db.selectFrom('permissions').select(GRANT_COLUMNS).where(grantNamesAnyOf(grantees)).where('permission', '=', 'admin');
  if (options.inWorkspace !== undefined) query = query.where(inWorkspaceByOtherIndexes(options.inWorkspace));
  return toGrantRecords(db, await query.execute());
}
