import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

export interface Workspace {
  id: number;
  name: string;
  createdAt: number;
}

/** Whether the Workspace exists; cached until the data changes (every request selecting one asks). */
export function workspaceExists(db: Db, id: number): Promise<boolean> {
  return cachedRead(db, 'workspace-exists', String(id), async () => {
    const row = await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  });
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

export async function findWorkspace(db: Db, id: number): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, name: row.name, createdAt: row.created_at };
}

export async function insertWorkspace(db: Db, name: string, now: number): Promise<Workspace> {
  const row = await db.insertInto('workspaces').values({ name, created_at: now }).returningAll().executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export async function renameWorkspace(db: Db, id: number, name: string): Promise<void> {
  await db.updateTable('workspaces').set({ name }).where('id', '=', id).execute();
}

export async function deleteWorkspaceRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', id).execute();
}

/** What keeps a Workspace from being deleted: anything that belongs to it. */
export async function workspaceContents(db: Db, id: number): Promise<{ users: number; groups: number; partners: number; apiKeys: number; permissions: number; automations: number; bundles: number }> {
  const count = async (table: 'users' | 'groups' | 'partners' | 'api_keys' | 'permissions' | 'automations' | 'bundles') => {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', id).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { users: await count('users'), groups: await count('groups'), partners: await count('partners'), apiKeys: await count('api_keys'), permissions: await count('permissions'), automations: await count('automations'), bundles: await count('bundles') };
}
