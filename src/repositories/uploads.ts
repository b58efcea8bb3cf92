import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import type { UploadsTable } from '../db/tables.js';

/** An upload in progress: it becomes an entry only when its owner ends it. */
export interface Upload {
  id: number;
  ref: string;
  /** Qualified site path the file will take, as first requested. */
  path: string;
  pathKey: string;
  requestWorkspaceId: number;
  owner: UploadOwner;
  mkdirParents: boolean;
  createdAt: number;
  expiresAt: number;
}

/**
 * A user, or for a site-wide key (which has no user) the key itself; nobody (both null) once the
 * owner was deleted, when the upload can only expire.
 */
export type UploadOwner = { userId: number; apiKeyId: null } | { userId: null; apiKeyId: number } | { userId: null; apiKeyId: null };

export interface UploadPart {
  partNumber: number;
  storageKey: string;
  size: number;
  sha256: string;
}

const UPLOAD_COLUMNS = ['id', 'ref', 'path', 'path_key', 'context_workspace_id', 'user_id', 'api_key_id', 'mkdir_parents', 'created_at', 'expires_at'] as const;

type UploadRow = Pick<Selectable<UploadsTable>, (typeof UPLOAD_COLUMNS)[number]>;

function toUpload(row: UploadRow): Upload {
  const owner: UploadOwner =
    row.user_id !== null ? { userId: row.user_id, apiKeyId: null } : row.api_key_id !== null ? { userId: null, apiKeyId: row.api_key_id } : { userId: null, apiKeyId: null };
  return {
    id: row.id,
    ref: row.ref,
    path: row.path,
    pathKey: row.path_key,
    requestWorkspaceId: row.context_workspace_id,
    owner,
    mkdirParents: Boolean(row.mkdir_parents),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

export async function insertUpload(db: Db, upload: Omit<Upload, 'id'>): Promise<Upload> {
  const row = await db
    .insertInto('uploads')
    .values({
      ref: upload.ref,
      path: upload.path,
      path_key: upload.pathKey,
      context_workspace_id: upload.requestWorkspaceId,
      user_id: upload.owner.userId,
      api_key_id: upload.owner.apiKeyId,
      mkdir_parents: upload.mkdirParents,
      created_at: upload.createdAt,
      expires_at: upload.expiresAt,
    })
    .returning(UPLOAD_COLUMNS)
    .executeTakeFirstOrThrow();
  return toUpload(row);
}

export async function findUploadByRef(db: Db, ref: string): Promise<Upload | undefined> {
  const row = await db.selectFrom('uploads').select(UPLOAD_COLUMNS).where('ref', '=', ref).executeTakeFirst();
  return row === undefined ? undefined : toUpload(row);
}

export async function findUploadById(db: Db, id: number): Promise<Upload | undefined> {
  const row = await db.selectFrom('uploads').select(UPLOAD_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toUpload(row);
}

export async function partsOf(db: Db, uploadId: number): Promise<UploadPart[]> {
  const rows = await db
    .selectFrom('upload_parts')
    .select(['part_number', 'storage_key', 'size', 'sha256'])
    .where('upload_id', '=', uploadId)
    .orderBy('part_number')
    .execute();
  return rows.map((row) => ({ partNumber: row.part_number, storageKey: row.storage_key, size: Number(row.size), sha256: row.sha256 }));
}

/**
 * Records a received part, replacing an earlier copy of the same part; the replaced blob's key,
 * for the caller to delete once this commits. The foreign key to the upload makes this fail when
 * the upload has ended or expired meanwhile, so a late part never outlives its upload unseen.
 * The same part sent twice at once is stored once after the other: the second replaces the first.
 */
export async function putPart(db: Db, uploadId: number, part: UploadPart): Promise<string | undefined> {
  return db.transaction().execute(async (tx) => {
    await takeTurn(tx, `upload-part:${uploadId}:${part.partNumber}`);
    const replaced = await tx
      .deleteFrom('upload_parts')
      .where('upload_id', '=', uploadId)
      .where('part_number', '=', part.partNumber)
      .returning('storage_key')
      .executeTakeFirst();
    await tx
      .insertInto('upload_parts')
      .values({ upload_id: uploadId, part_number: part.partNumber, storage_key: part.storageKey, size: part.size, sha256: part.sha256 })
      .execute();
    return replaced?.storage_key;
  });
}

/**
 * Removes an upload and its parts, answering the parts' blob keys, or undefined when the upload
 * was already gone (another request ended or purged it first). Part rows are deleted explicitly
 * before the upload so that every part committed until now is in the answer; a part arriving later
 * fails its foreign key and cleans up after itself.
 */
export async function takeUpload(db: Db, uploadId: number): Promise<string[] | undefined> {
  const parts = await db.deleteFrom('upload_parts').where('upload_id', '=', uploadId).returning('storage_key').execute();
  const removed = await db.deleteFrom('uploads').where('id', '=', uploadId).returning('id').executeTakeFirst();
  if (removed === undefined) return undefined;
  return parts.map((row) => row.storage_key);
}

/** Ids of uploads past their expiry, oldest first. */
export async function expiredUploadIds(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('uploads').select('id').where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();
  return rows.map((row) => row.id);
}
