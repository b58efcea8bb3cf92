import type { Db } from '../../db/database.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';

export async function findGrant(db: Db, id: number): Promise<GrantRecord | undefined> {
  const row = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : (await toGrantRecords(db, [row]))[0];
}

/** A grant to store: a record before it has an id, made at `now`. */
export type NewGrant = Omit<GrantRecord, 'id' | 'createdAt'> & { now: number };

export async function insertGrant(db: Db, grant: NewGrant): Promise<GrantRecord> {
  const row = await db
    .insertInto('permissions')
    .values({
      workspace_id: grant.workspaceId,
      path: grant.path,
      path_key: grant.pathKey,
      user_id: grant.grantee.kind === 'user' ? grant.grantee.userId : null,
      group_id: grant.grantee.kind === 'group' ? grant.grantee.groupId : null,
      partner_id: grant.grantee.kind === 'partner' ? grant.grantee.partnerId : null,
      permission: grant.level,
      recursive: grant.recursive,
      created_at: grant.now,
    })
    .returning(GRANT_COLUMNS)
    .executeTakeFirstOrThrow();
  if (grant.grantee.kind === 'groups') {
    const groupIds = [...new Set(grant.grantee.groupIds)];
    await db.insertInto('permission_groups').values(groupIds.map((groupId) => ({ permission_id: row.id, group_id: groupId }))).execute();
  }
  return (await toGrantRecords(db, [row]))[0] as GrantRecord;
}

/** Deletes the grants; answers how many there were (another request may have deleted some first). */
export async function deleteGrants(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  // permission_groups rows go with their grant (on delete cascade).
  const result = await db.deleteFrom('permissions').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The display spelling of an existing grant's path, its first grant's, if any grant lies on it. */
export async function grantSpellingOf(db: Db, pathKey: string): Promise<string | undefined> {
  const grant = await db.selectFrom('permissions').select('path').where('path_key', '=', pathKey).orderBy('id').limit(1).executeTakeFirst();
  return grant?.path;
}

/** Grants in id order after `afterId`, a page at a time: for a walk over every grant of the site. */
export async function grantsAfter(db: Db, afterId: number, limit: number): Promise<GrantRecord[]> {
  const rows = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return toGrantRecords(db, rows);
}
