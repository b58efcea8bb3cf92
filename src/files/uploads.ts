import { randomBytes } from 'node:crypto';
import type { SitePath } from '../access/index.js';
import type { Capability } from '../authz/index.js';
import { errors } from '../errors/catalogue.js';
import type { Entry, FileContent } from '../repositories/entries.js';
import { expiredUploadIds, findUploadByRef, insertUpload, partsOf, takeUpload, type Upload, type UploadOwner, type UploadPart } from '../repositories/uploads.js';
import { newStorageKey, runSliceOf } from '../storage/storage-keys.js';
import { planCreation } from './creation-plan.js';
import { commitFile } from './file-commit.js';
import { discardBlobs, type FileDeps } from './file-deps.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';
import { checkedParts, keepPartAsFile } from './received-parts.js';
import { storeBody } from './stored-content.js';

/** How long an upload may stay open before it is abandoned and its parts deleted. */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
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
 * Begins an upload (docs/files.md): decides now whether the caller may create or overwrite the
 * file, so that no bytes are sent in vain, and records the upload. Nothing is visible until the
 * upload ends.
 */
export async function beginUpload(scope: SessionScope, site: SitePath, mkdirParents: boolean): Promise<PartOffer> {
  const { db, clock } = scope.deps;
  assertChangeablePath(scope, site);
  const plan = await planCreation(db, scope, site, { type: 'file', mkdirParents });
  await purgeExpiredUploads(scope.deps);
  const now = clock.now();
  const upload = await insertUpload(db, {
    ref: randomBytes(16).toString('hex'),
    path: plan.path,
    pathKey: site.key,
    requestWorkspaceId: scope.requestWorkspaceId,
    owner: ownerOf(scope),
    mkdirParents,
    createdAt: now,
    expiresAt: now + UPLOAD_LIFETIME_MS,
  });
  return { upload, partNumber: 1, fileExists: plan.existing !== undefined };
}

/** Where to send part `partNumber` of the caller's upload `ref` of this path. */
export async function offerPart(scope: SessionScope, site: SitePath, ref: string, partNumber: number): Promise<PartOffer> {
  const upload = await ownUpload(scope, site, ref);
  return { upload, partNumber, fileExists: false };
}

/**
 * Ends an upload: its parts, in order, become the file, atomically, if the caller may still
 * create or overwrite it. A single part becomes the file's contents as it is; several are joined
 * into a new blob first (streamed, never held in memory). Either way each part is first checked
 * against what was received (received-parts.ts). The upload and its parts are removed in
 * the same transaction that makes the file visible.
 */
export async function endUpload(scope: SessionScope, site: SitePath, ref: string): Promise<{ entry: Entry; capabilities: Capability[] }> {
  const { db, clock, storage, maxUploadBytes } = scope.deps;
  const upload = await ownUpload(scope, site, ref);
  const parts = await partsOf(db, upload.id);
  parts.forEach((part, index) => {
    if (part.partNumber !== index + 1) throw errors.uploadPartGap(index + 1);
  });
  const fromRun = await contentOfRun(scope.deps, upload.ref, parts);
  // A part of its own becomes the file as it is; a slice of a run (dropped) is copied out of it.
  const single = fromRun === undefined && parts.length === 1 && runSliceOf(parts[0]?.storageKey ?? '') === undefined ? parts[0] : undefined;
  const content: FileContent = await (async () => {
    // Parts were stored unflushed: checked here, and only the file is flushed (received-parts.ts).
    if (single !== undefined) await keepPartAsFile(storage, single);
    return fromRun ?? single ?? await storeBody(storage, checkedParts(storage, parts), { maxBytes: maxUploadBytes, limitForMessage: maxUploadBytes });
  })().catch(async (error: unknown) => {
    // Another request ended the upload since its parts were listed here, and removed them: this
    // one is answered as if it had come after that one, not as a part lost.
    if ((await findUploadByRef(db, upload.ref)) === undefined) throw errors.fileUploadNotFound();
    throw error;
  });
  let partKeys: string[] = [];
  try {
    const { entry, replacedStorageKey, capabilities } = await commitFile(db, scope, site, content, {
      mkdirParents: upload.mkdirParents,
      now: clock.now(),
      inTransaction: async (tx) => {
        const taken = await takeUpload(tx, upload.id);
        if (taken === undefined) throw errors.fileUploadNotFound();
        // A part sent again while this request joined the parts has replaced (and deleted) a blob
        // read here: the file must not point at it. Nothing is committed; the client ends again.
        if (!sameMembers(taken, parts.map((part) => part.storageKey))) throw errors.uploadPartsChanged();
        partKeys = taken;
      },
    });
    await discardBlobs(storage, [...partKeys.filter((key) => key !== content.storageKey), ...(replacedStorageKey === undefined ? [] : [replacedStorageKey])]);
    return { entry, capabilities };
  } catch (error) {
    // A joined blob (or the run's) is this request's own; a single part still belongs to the upload.
    if (single === undefined) await discardBlobs(storage, [content.storageKey]);
    throw error;
  }
}

/**
 * The file as the upload's run holds it (upload-runs.ts), made a blob of its own, when the run
 * holds exactly these parts; undefined otherwise, or if the run cannot be finished, and the parts
 * are checked and joined as before.
 */
async function contentOfRun(deps: FileDeps, ref: string, parts: readonly UploadPart[]): Promise<FileContent | undefined> {
  if (parts.length === 0) return undefined;
  const run = deps.runs.take(ref, parts.map((part) => part.storageKey));
  if (run === undefined) return undefined;
  const size = parts.reduce((sum, part) => sum + part.size, 0);
  if (run.size !== size) {
    // Its slices are still the parts: they are read back instead.
    await run.close();
    return undefined;
  }
  const storageKey = newStorageKey();
  const written = await run.finish(storageKey).catch(() => undefined);
  return written === undefined ? undefined : { storageKey, ...written };
}

/**
 * The caller's own open upload of `ref` for this very path; anything else (unknown, expired,
 * another caller's, another path) is `not-found/file-upload-not-found`, one answer for all.
 */
async function ownUpload(scope: SessionScope, site: SitePath, ref: string): Promise<Upload> {
  const upload = await findUploadByRef(scope.deps.db, ref);
  if (upload === undefined || upload.pathKey !== site.key || upload.expiresAt <= scope.deps.clock.now()) throw errors.fileUploadNotFound();
  const owner = ownerOf(scope);
  if (upload.owner.userId !== owner.userId || upload.owner.apiKeyId !== owner.apiKeyId) throw errors.fileUploadNotFound();
  return upload;
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((key) => set.has(key));
}

function ownerOf(scope: SessionScope): UploadOwner {
  const user = scope.caller.user;
  if (user !== null) return { userId: user.id, apiKeyId: null };
  const credential = scope.caller.credential;
  // Only an API key can lack a user (a site-wide key).
  if (credential.kind !== 'api_key') throw new Error('a session without a user');
  return { userId: null, apiKeyId: credential.keyId };
}

/** Removes a few abandoned uploads and their parts' blobs (run as uploads begin). */
async function purgeExpiredUploads(deps: FileDeps): Promise<void> {
  for (const id of await expiredUploadIds(deps.db, deps.clock.now(), PURGE_BATCH)) {
    const keys = await deps.db.transaction().execute((tx) => takeUpload(tx, id));
    if (keys !== undefined) await discardBlobs(deps.storage, keys);
  }
}
