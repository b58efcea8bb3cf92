import { sql } from 'kysely';
import type { Db } from '../db/database.js';

// The visits of share links and the wrong passwords given to them (migration 026,
// docs/sharing.md#visiting-a-link). A visit's token is never stored, only its SHA-256.

export interface BundleVisit {
  id: number;
  bundleId: number;
  tokenHash: string;
  bundleRegistrationId: number | null;
  uploadFolder: string | null;
  createdAt: number;
}

type VisitRow = {
  id: number; bundle_id: number; token_hash: string; bundle_registration_id: number | null; upload_folder: string | null;
  created_at: number | string;
};

function toVisit(row: VisitRow): BundleVisit {
  return {
    id: row.id, bundleId: row.bundle_id, tokenHash: row.token_hash, bundleRegistrationId: row.bundle_registration_id,
    uploadFolder: row.upload_folder, createdAt: Number(row.created_at),
  };
}

export async function insertBundleVisit(db: Db, visit: { bundleId: number; tokenHash: string; bundleRegistrationId: number | null; ip: string | null; now: number }): Promise<BundleVisit> {
  const row = await db.insertInto('bundle_visits')
    .values({
      bundle_id: visit.bundleId, token_hash: visit.tokenHash, bundle_registration_id: visit.bundleRegistrationId, upload_folder: null,
      ip: visit.ip, created_at: visit.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toVisit(row as VisitRow);
}

/** The visit whose token has this hash, looked up by the unique index. */
export async function findBundleVisitByTokenHash(db: Db, tokenHash: string): Promise<BundleVisit | undefined> {
  const row = await db.selectFrom('bundle_visits').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row === undefined ? undefined : toVisit(row as VisitRow);
}

/** How many visits a link has had: each is one of its `max_uses`. */
export async function countBundleVisits(db: Db, bundleId: number): Promise<number> {
  const row = await db.selectFrom('bundle_visits').select(sql<number | string>`count(*)`.as('count'))
    .where('bundle_id', '=', bundleId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Sets a visit's upload folder unless one is set already; answers the folder the visit has. */
export async function settleUploadFolder(db: Db, visitId: number, folder: string): Promise<string> {
  await db.updateTable('bundle_visits').set({ upload_folder: folder }).where('id', '=', visitId).where('upload_folder', 'is', null).execute();
  const row = await db.selectFrom('bundle_visits').select('upload_folder').where('id', '=', visitId).executeTakeFirstOrThrow();
  return row.upload_folder ?? folder;
}

export async function insertBundlePasswordFailure(db: Db, failure: { bundleId: number; clientKey: string; now: number }): Promise<void> {
  await db.insertInto('bundle_password_failures').values({ bundle_id: failure.bundleId, client_key: failure.clientKey, created_at: failure.now }).execute();
}

/** The wrong passwords given since `since`: to the link `bundleId`, and from the address `clientKey` to any link; with the oldest of each. */
export async function bundlePasswordFailuresSince(db: Db, of: { bundleId: number; clientKey: string }, since: number): Promise<{
  link: { count: number; oldest: number | null }; client: { count: number; oldest: number | null };
}> {
  const count = async (column: 'bundle_id' | 'client_key', value: number | string) => {
    const row = await db.selectFrom('bundle_password_failures')
      .select([sql<number | string>`count(*)`.as('count'), sql<number | string | null>`min(created_at)`.as('oldest')])
      .where(column, '=', value as never).where('created_at', '>', since).executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
  };
  return { link: await count('bundle_id', of.bundleId), client: await count('client_key', of.clientKey) };
}

/** Forgets the failures older than `before`: they limit nothing any more. */
export async function pruneBundlePasswordFailures(db: Db, before: number): Promise<void> {
  await db.deleteFrom('bundle_password_failures').where('created_at', '<=', before).execute();
}

/** The recipient of a link with this address (any case), if the link was shared with it. */
export async function findBundleRecipientIdByAddress(db: Db, bundleId: number, address: string): Promise<number | null> {
  const row = await db.selectFrom('bundle_recipients').select('id').where('bundle_id', '=', bundleId).where('recipient_key', '=', address.toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

/** What a visitor registered as, for naming its upload folder. */
export async function findRegistrationFields(db: Db, id: number): Promise<{ name: string | null; email: string | null; company: string | null } | undefined> {
  return db.selectFrom('bundle_registrations').select(['name', 'email', 'company']).where('id', '=', id).executeTakeFirst();
}
