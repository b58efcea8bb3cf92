import type { Db } from '../db/database.js';
import { allOfGroupSets } from './grants.js';

export interface GrantWorkspaces {
  /** Workspaces of the user's own grants and of its groups' grants: these match by themselves. */
  matched: Set<number>;
  /** ALL-of grants naming one of the user's groups, with their Workspace and every group they name. */
  allOf: { workspaceId: number; groupIds: number[] }[];
}

/**
 * The Workspaces in which a user may hold a grant, by index: its own grants, its groups' grants,
 * and the ALL-of grants naming one of its groups. Which ALL-of grants the user really satisfies is
 * the engine's to say (authz `matchGrantee`), not this query's.
 */
export async function grantWorkspacesFor(db: Db, userId: number, groupIds: readonly number[]): Promise<GrantWorkspaces> {
  const matched = new Set<number>();
  const direct = await db.selectFrom('permissions').select('workspace_id').distinct().where('user_id', '=', userId).execute();
  for (const row of direct) matched.add(row.workspace_id);
  if (groupIds.length === 0) return { matched, allOf: [] };

  const viaGroup = await db.selectFrom('permissions').select('workspace_id').distinct().where('group_id', 'in', groupIds).execute();
  for (const row of viaGroup) matched.add(row.workspace_id);

  const allOfRows = await db
    .selectFrom('permissions')
    .select(['id', 'user_id', 'group_id', 'workspace_id'])
    .where('id', 'in', (eb) => eb.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds))
    .execute();
  const groupSets = await allOfGroupSets(db, allOfRows);
  return { matched, allOf: allOfRows.map((row) => ({ workspaceId: row.workspace_id, groupIds: groupSets.get(row.id) ?? [] })) };
}
