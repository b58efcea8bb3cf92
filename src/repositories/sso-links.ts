import type { Db } from '../db/database.js';

/** Which Atrium user an account at an issuer is: by the issuer and the account's `sub`. */
export interface SsoLink {
  id: number;
  providerId: number;
  issuer: string;
  subject: string;
  userId: number;
  username: string;
  createdAt: number;
  lastSignInAt: number | null;
}

function linkQuery(db: Db) {
  return db.selectFrom('sso_links as l').innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.provider_id', 'l.issuer', 'l.subject', 'l.user_id', 'u.username', 'l.created_at', 'l.last_sign_in_at']);
}

type LinkRow = { id: number; provider_id: number; issuer: string; subject: string; user_id: number; username: string; created_at: number; last_sign_in_at: number | null };

function toLink(row: LinkRow): SsoLink {
  return {
    id: row.id, providerId: row.provider_id, issuer: row.issuer, subject: row.subject, userId: row.user_id, username: row.username,
    createdAt: row.created_at, lastSignInAt: row.last_sign_in_at,
  };
}

export async function findLinkBySubject(db: Db, issuer: string, subject: string): Promise<SsoLink | undefined> {
  const row = await linkQuery(db).where('l.issuer', '=', issuer).where('l.subject', '=', subject).executeTakeFirst();
  return row === undefined ? undefined : toLink(row);
}

export async function findLink(db: Db, id: number): Promise<SsoLink | undefined> {
  const row = await linkQuery(db).where('l.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toLink(row);
}

/** The links of a provider, or of the users `userIds` (any provider), by id. */
export async function listLinks(db: Db, filter: { providerId?: number; userIds?: readonly number[] }): Promise<SsoLink[]> {
  let query = linkQuery(db);
  if (filter.providerId !== undefined) query = query.where('l.provider_id', '=', filter.providerId);
  if (filter.userIds !== undefined) {
    if (filter.userIds.length === 0) return [];
    query = query.where('l.user_id', 'in', filter.userIds);
  }
  return (await query.orderBy('l.id').execute()).map(toLink);
}

export async function insertLink(tx: Db, link: { providerId: number; issuer: string; subject: string; userId: number; now: number }): Promise<number> {
  const row = await tx.insertInto('sso_links')
    .values({ provider_id: link.providerId, issuer: link.issuer, subject: link.subject, user_id: link.userId, created_at: link.now, last_sign_in_at: null })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteLink(tx: Db, id: number): Promise<void> {
  await tx.deleteFrom('sso_links').where('id', '=', id).execute();
}

export async function touchLink(tx: Db, id: number, now: number): Promise<void> {
  await tx.updateTable('sso_links').set({ last_sign_in_at: now }).where('id', '=', id).execute();
}
