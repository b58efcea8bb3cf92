import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import { isForeignKeyViolation } from '../repositories/constraint-errors.js';
import type { Entry, FileContent } from '../repositories/entries.js';
import {
  expiredUploadIds, findUploadById, findUploadByRef, insertUpload, partsOf, putPart, takeUpload, type Upload, type UploadOwner,
} from '../repositories/uploads.js';
import type { SitePath } from '../access/index.js';
import { planCreation } from './creation-plan.js';
import { commitFile } from './file-commit.js';
import { assertChangeablePath, type FileActor } from './file-actor.js';
import { discardBlobs, type FileCore } from './file-core.js';
import { assertDeclaredLength, concatenatedBlobs, storeBody } from './stored-content.js';

/** How long an upload may stay open before it is abandoned and its parts deleted. */
const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Parts an upload may have (as Files.com). */
export const MAX_PARTS = 10_000;
const PURGE_BATCH = 20;

/** An invitation to send one part: the upload and the part's number. */
export interface PartOffer {
  upload: Upload;
  partNumber: number;
  /** Whether a file exists at the path now (the client may want to confirm an overwrite). */
  fileExists: boolean;
}

/**
 * Begins an upload (POST /files/<path> with action=put, docs/files.md): decides now whether the
 * actor may create or overwrite the file, so that no bytes are sent in vain, and records the
 * upload. Nothing is visible until the upload ends.
 */
export async function beginUpload(ctx: FileCore, actor: FileActor, site: SitePath, mkdirParents: boolean): Promise<PartOffer> {
  assertChangeablePath(actor, site);
  const plan = await planCreation(ctx.db, actor, site, { type: 'file', mkdirParents });
  await purgeExpiredUploads(ctx);
  const now = ctx.clock.now();
  const upload = await insertUpload(ctx.db, {
    ref: randomBytes(16).toString('hex'),
    path: plan.path,
    pathKey: site.key,
    requestWorkspaceId: actor.requestWorkspaceId,
    owner: ownerOf(actor),
    mkdirParents,
    createdAt: now,
    expiresAt: now + UPLOAD_LIFETIME_MS,
  });
  return { upload, partNumber: 1, fileExists: plan.existing !== undefined };
}

/** POST /files/<path> with action=put, ref and part: where to send that part. */
export async function offerPart(ctx: FileCore, actor: FileActor, site: SitePath, ref: string, partNumber: number): Promise<PartOffer> {
  const upload = await ownUpload(ctx, actor, site, ref);
  return { upload, partNumber, fileExists: false };
}

/**
 * PUT to a signed upload URL: streams one part into storage. The URL was checked by the caller
 * (it names this upload and part). A part sent twice replaces the earlier copy. Parts together
 * may not exceed the upload limit.
 */
export async function receivePart(ctx: FileCore, upload: Upload, partNumber: number, body: Readable | undefined, contentLength: number | undefined): Promise<FileContent> {
  if (upload.expiresAt <= ctx.clock.now()) throw errors.fileUploadNotFound();
  const others = (await partsOf(ctx.db, upload.id)).filter((part) => part.partNumber !== partNumber);
  const remaining = Math.max(0, ctx.maxUploadBytes - others.reduce((sum, part) => sum + part.size, 0));
  assertDeclaredLength(contentLength, remaining, ctx.maxUploadBytes);
  const content = await storeBody(ctx.storage, body, { maxBytes: remaining, limitForMessage: ctx.maxUploadBytes });
  let replaced: string | undefined;
  try {
    replaced = await putPart(ctx.db, upload.id, { partNumber, ...content });
  } catch (error) {
    await discardBlobs(ctx.storage, [content.storageKey]);
    // The upload ended or expired while this part was on its way.
    if (isForeignKeyViolation(error)) throw errors.fileUploadNotFound();
    throw error;
  }
  if (replaced !== undefined) await discardBlobs(ctx.storage, [replaced]);
  return content;
}

/**
 * Ends an upload (action=end): its parts, in order, become the file, atomically, if the actor may
 * still create or overwrite it. A single part becomes the file's contents as it is; several are
 * joined into a new blob first (streamed, never held in memory). The upload and its parts are
 * removed in the same transaction that makes the file visible.
 */
export async function endUpload(ctx: FileCore, actor: FileActor, site: SitePath, ref: string): Promise<Entry> {
  const upload = await ownUpload(ctx, actor, site, ref);
  const parts = await partsOf(ctx.db, upload.id);
  parts.forEach((part, index) => {
    if (part.partNumber !== index + 1) throw errors.uploadPartGap(index + 1);
  });
  const single = parts.length === 1 ? parts[0] : undefined;
  const content: FileContent = single ?? await storeBody(ctx.storage, concatenatedBlobs(ctx.storage, parts.map((part) => part.storageKey)), {
    maxBytes: ctx.maxUploadBytes,
    limitForMessage: ctx.maxUploadBytes,
  });
  let partKeys: string[] = [];
  try {
    const { entry, replacedStorageKey } = await commitFile(ctx.db, actor, site, content, {
      mkdirParents: upload.mkdirParents,
      now: ctx.clock.now(),
      inTransaction: async (tx) => {
        const taken = await takeUpload(tx, upload.id);
        if (taken === undefined) throw errors.fileUploadNotFound();
        // A part sent again while this request joined the parts has replaced (and deleted) a blob
        // read here: the file must not point at it. Nothing is committed; the client ends again.
        if (!sameMembers(taken, parts.map((part) => part.storageKey))) throw errors.uploadPartsChanged();
        partKeys = taken;
      },
    });
    await discardBlobs(ctx.storage, [...partKeys.filter((key) => key !== content.storageKey), ...(replacedStorageKey === undefined ? [] : [replacedStorageKey])]);
    return entry;
  } catch (error) {
    // A joined blob is this request's own; a single part still belongs to the upload.
    if (single === undefined) await discardBlobs(ctx.storage, [content.storageKey]);
    throw error;
  }
}

/**
 * PUT /files/<path> with the raw body: the whole upload in one request (`curl -T`). The actor's
 * right is decided before a byte is read, and again when the file is made visible.
 */
export async function uploadWhole(
  ctx: FileCore,
  actor: FileActor,
  site: SitePath,
  body: Readable | undefined,
  options: { mkdirParents: boolean; contentLength: number | undefined },
): Promise<{ entry: Entry; replaced: boolean }> {
  assertChangeablePath(actor, site);
  await planCreation(ctx.db, actor, site, { type: 'file', mkdirParents: options.mkdirParents });
  assertDeclaredLength(options.contentLength, ctx.maxUploadBytes, ctx.maxUploadBytes);
  const content = await storeBody(ctx.storage, body, { maxBytes: ctx.maxUploadBytes, limitForMessage: ctx.maxUploadBytes });
  try {
    const { entry, replacedStorageKey } = await commitFile(ctx.db, actor, site, content, { mkdirParents: options.mkdirParents, now: ctx.clock.now() });
    if (replacedStorageKey !== undefined) await discardBlobs(ctx.storage, [replacedStorageKey]);
    return { entry, replaced: replacedStorageKey !== undefined };
  } catch (error) {
    await discardBlobs(ctx.storage, [content.storageKey]);
    throw error;
  }
}

/** The upload a signed URL names, if it still exists. */
export async function uploadById(ctx: FileCore, id: number): Promise<Upload | undefined> {
  return findUploadById(ctx.db, id);
}

/**
 * The actor's own open upload of `ref` for this very path; anything else (unknown, expired,
 * another caller's, another path) is `not-found/file-upload-not-found`, one answer for all.
 */
async function ownUpload(ctx: FileCore, actor: FileActor, site: SitePath, ref: string): Promise<Upload> {
  const upload = await findUploadByRef(ctx.db, ref);
  if (upload === undefined || upload.pathKey !== site.key || upload.expiresAt <= ctx.clock.now()) throw errors.fileUploadNotFound();
  const owner = ownerOf(actor);
  if (upload.owner.userId !== owner.userId || upload.owner.apiKeyId !== owner.apiKeyId) throw errors.fileUploadNotFound();
  return upload;
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((key) => set.has(key));
}

function ownerOf(actor: FileActor): UploadOwner {
  const user = actor.caller.user;
  if (user !== null) return { userId: user.id, apiKeyId: null };
  const credential = actor.caller.credential;
  // Only an API key can lack a user (a site-wide key).
  if (credential.kind !== 'api_key') throw new Error('a session without a user');
  return { userId: null, apiKeyId: credential.keyId };
}

/** Removes a few abandoned uploads and their parts' blobs (run as uploads begin). */
export async function purgeExpiredUploads(ctx: FileCore): Promise<void> {
  for (const id of await expiredUploadIds(ctx.db, ctx.clock.now(), PURGE_BATCH)) {
    const keys = await ctx.db.transaction().execute((tx) => takeUpload(tx, id));
    if (keys !== undefined) await discardBlobs(ctx.storage, keys);
  }
}
