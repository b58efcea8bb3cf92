import type { Db } from '../../db/database.js';
import { grantNamesAnyOf, type GranteeSet } from './grantee-set.js';

/**
 * The Workspaces in which the grants of a grantee set lie (a user's own, its groups', and the
 * ALL-of grants it satisfies, as access's granteeSetOf decides them), in one indexed query.
 */
export async function grantWorkspacesFor(db: Db, grantees: GranteeSet): Promise<Set<number>> {
  const rows = await db.selectFrom('permissions').select('workspace_id').distinct().where(grantNamesAnyOf(grantees)).execute();
  return new Set(rows.map((row) => row.workspace_id));
}
