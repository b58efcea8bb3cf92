import type { Db } from '../db/database.js';

export interface Workspace {
  id: number;
  name: string;
  createdAt: number;
}

export async function workspaceExists(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** One page of Workspaces by id, after `afterId`, optionally only those in `ids`. */
export async function listWorkspaces(
  db: Db,
  page: { afterId: number; limit: number; onlyIds?: readonly number[] },
): Promise<Workspace[]> {
  if (page.onlyIds !== undefined && page.onlyIds.length === 0) return [];
  let query = db.selectFrom('workspaces').selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit);
  if (page.onlyIds !== undefined) query = query.where('id', 'in', page.onlyIds);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at }));
}
