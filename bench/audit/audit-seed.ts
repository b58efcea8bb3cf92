import { postgresWriter, sqliteWriter, type BulkWriter, type Row } from '../seed/bulk-writer.js';
import { workspaceRoot } from '../seed/site-plan.js';
import type { SeededSite } from '../seed/seed-site.js';
import type { StoreName } from '../stores.js';

/** The Workspace whose every user joins one group with an admin grant on its root (the dry run's subject). */
export const EVERYONE_WORKSPACE = 2;

/** What the access-review scenarios need besides the seeded site. */
export interface AuditSite {
  /** The root `admin` grant of the group of every user of EVERYONE_WORKSPACE. */
  everyoneRootGrantId: number;
  everyoneMembers: number;
}

/** A writer on a snapshot of the store (stores.ts): its database file, or its schema. */
export function writerOn(name: StoreName, env: Record<string, string>): Promise<BulkWriter> {
  if (name === 'sqlite') return Promise.resolve(sqliteWriter(`${env.ATRIUM_DATA_DIR}/atrium.sqlite`));
  return postgresWriter(env.ATRIUM_DATABASE_URL as string);
}

/**
 * Adds to a copy of the seeded site a group of every user of one Workspace (1,000 on the full
 * site) holding an `admin` grant on that Workspace's root: deleting that grant is the heaviest
 * access review a Workspace Administrator can ask for.
 */
export async function seedAudit(writer: BulkWriter, site: SeededSite, ids: { groupId: number; grantId: number }): Promise<AuditSite> {
  const { plan } = site;
  const ws = EVERYONE_WORKSPACE;
  const now = Date.now();
  await writer.insert('groups', ['id', 'workspace_id', 'name', 'name_key', 'created_at'], [[ids.groupId, ws, `w${ws}-everyone`, `w${ws}-everyone`, now]]);
  const members: Row[] = Array.from({ length: plan.shape.usersPerWorkspace }, (_, j) => [ids.groupId, plan.userId(ws, j), false, now]);
  await writer.insert('group_users', ['group_id', 'user_id', 'admin', 'created_at'], members);
  const root = workspaceRoot(ws);
  await writer.insert('permissions', ['id', 'workspace_id', 'path', 'path_key', 'user_id', 'group_id', 'permission', 'recursive', 'created_at'], [
    [ids.grantId, ws, root, root.toLowerCase(), null, ids.groupId, 'admin', true, now],
  ]);
  await writer.finish(['groups', 'group_users', 'permissions']);
  return { everyoneRootGrantId: ids.grantId, everyoneMembers: members.length };
}
