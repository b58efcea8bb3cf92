import type { Db } from '../../db/database.js';
import { allOfGrantsNamingAny } from './all-of-grants.js';
import { grantNamesAnyOf } from './grantee-set.js';

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
  const direct = await db
    .selectFrom('permissions')
    .select('workspace_id')
    .distinct()
    .where(grantNamesAnyOf({ userId, groupIds, allOfGrantIds: [] }))
    .execute();
  const allOf = await allOfGrantsNamingAny(db, groupIds);
  return {
    matched: new Set(direct.map((row) => row.workspace_id)),
    allOf: allOf.map((record) => ({ workspaceId: record.workspaceId, groupIds: record.grantee.kind === 'groups' ? [...record.grantee.groupIds] : [] })),
  };
}
