import type { Selectable } from 'kysely';
import type { Grant, Grantee, Level } from '../../authz/index.js';
import type { Db } from '../../db/database.js';
import type { PermissionsTable } from '../../db/tables.js';

/** A stored grant: one row of `permissions`, with the group set of an ALL-of grant. */
export interface GrantRecord {
  id: number;
  /** The Workspace its path lies in. */
  workspaceId: number;
  /** Qualified site path, display spelling. */
  path: string;
  pathKey: string;
  grantee: Grantee;
  level: Level;
  recursive: boolean;
  createdAt: number;
}

/** The columns every read of `permissions` selects: the whole row. */
export const GRANT_COLUMNS = ['id', 'workspace_id', 'path', 'path_key', 'user_id', 'group_id', 'partner_id', 'permission', 'recursive', 'created_at'] as const;

export type GrantRow = Pick<Selectable<PermissionsTable>, (typeof GRANT_COLUMNS)[number]>;

/** The engine's view of a stored grant. */
export function toEngineGrant(record: GrantRecord): Grant {
  return { id: record.id, pathKey: record.pathKey, grantee: record.grantee, level: record.level, recursive: record.recursive };
}

/** Rows to records, loading the group sets of ALL-of grants in one query. */
export async function toGrantRecords(db: Db, rows: readonly GrantRow[]): Promise<GrantRecord[]> {
  const groupSets = await allOfGroupSets(db, rows);
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    path: row.path,
    pathKey: row.path_key,
    grantee: granteeOf(row, groupSets),
    // Stored levels are only ever written from the validated enum; the engine fails closed on
    // anything else should a bad row appear.
    level: row.permission as Level,
    recursive: Boolean(row.recursive),
    createdAt: row.created_at,
  }));
}

/** The groups of each ALL-of grant among `rows` (those naming no user, group or Partner). */
async function allOfGroupSets(db: Db, rows: readonly GrantRow[]): Promise<Map<number, number[]>> {
  const allOfIds = rows.filter((r) => r.user_id === null && r.group_id === null && r.partner_id === null).map((r) => r.id);
  const groupsByGrant = new Map<number, number[]>();
  if (allOfIds.length === 0) return groupsByGrant;
  const members = await db
    .selectFrom('permission_groups')
    .select(['permission_id', 'group_id'])
    .where('permission_id', 'in', allOfIds)
    .orderBy('group_id')
    .execute();
  for (const m of members) {
    const list = groupsByGrant.get(m.permission_id) ?? [];
    list.push(m.group_id);
    groupsByGrant.set(m.permission_id, list);
  }
  return groupsByGrant;
}

/** A stored row's grantee: a user, a group, a Partner, or (none set) the ALL-of set loaded for it. */
function granteeOf(row: GrantRow, allOfSets: ReadonlyMap<number, number[]>): Grantee {
  if (row.user_id !== null) return { kind: 'user', userId: row.user_id };
  if (row.group_id !== null) return { kind: 'group', groupId: row.group_id };
  if (row.partner_id !== null) return { kind: 'partner', partnerId: row.partner_id };
  return { kind: 'groups', groupIds: allOfSets.get(row.id) ?? [] };
}
