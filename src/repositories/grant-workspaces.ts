import type { Db } from '../db/database.js';

/**
 * The Workspaces in which a user holds at least one grant: directly, through a group, or through
 * an ALL-of grant whose every group the user belongs to.
 */
export async function workspacesWithGrantsFor(db: Db, userId: number, groupIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  const direct = await db.selectFrom('permissions').select('workspace_id').distinct().where('user_id', '=', userId).execute();
  for (const row of direct) found.add(row.workspace_id);
  if (groupIds.length === 0) return found;

  const viaGroup = await db.selectFrom('permissions').select('workspace_id').distinct().where('group_id', 'in', groupIds).execute();
  for (const row of viaGroup) found.add(row.workspace_id);

  const allOfRows = await db
    .selectFrom('permission_groups as pg')
    .innerJoin('permissions as p', 'p.id', 'pg.permission_id')
    .select(['pg.permission_id', 'pg.group_id', 'p.workspace_id'])
    .where('pg.permission_id', 'in', (eb) =>
      eb.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds),
    )
    .execute();
  const member = new Set(groupIds);
  const satisfied = new Map<number, { workspaceId: number; ok: boolean }>();
  for (const row of allOfRows) {
    const entry = satisfied.get(row.permission_id) ?? { workspaceId: row.workspace_id, ok: true };
    entry.ok &&= member.has(row.group_id);
    satisfied.set(row.permission_id, entry);
  }
  for (const { workspaceId, ok } of satisfied.values()) if (ok) found.add(workspaceId);
  return found;
}
