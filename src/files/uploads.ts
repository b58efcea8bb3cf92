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
import { assertClientTime } from './modified-time.js';
import { assertPartsAsDeclared, type UploadDeclarations } from './upload-declarations.js';
import { checkedParts, keepPartAsFile } from './received-parts.js';
import { assertDeclaredLength, storeBody } from './stored-content.js';
import { partRange, type PartRange } from './upload-part-range.js';

/** How long an upload may stay open before it is abandoned and its parts deleted. */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
const PURGE_BATCH = 20;

/** An invitation to send parts of an upload: the upload and the parts' numbers. */
export interface PartsOffer {
  upload: Upload;
  parts: PartRange;
  /** Whether a file exists at the path now (the client may want to confirm an overwrite). */
  fileExists: boolean;
}

/** What beginning an upload asks for. */
export interface UploadBeginning {
  /** Create missing parent folders (decided now, and kept for the upload's end). */
  mkdirParents: boolean;
  /** How many parts to offer at once, from part 1. */
  parts: number;
  /** The file's size as the client declares it, if it does: refused at once when over the limit. */
  declaredSize: number | undefined;
}

/**
 * Begins an upload (docs/files.md): decides now whether the caller may create or overwrite the
 * file, so that no bytes are sent in vain, and records the upload. Nothing is visible until the
 * upload ends. A request that cannot be honoured (parts out of range, a declared size over the
 * limit) is refused before anything is recorded.
 */
export async function beginUpload(scope: SessionScope, site: SitePath, request: UploadBeginning): Promise<PartsOffer> {
  const { db, clock } = scope.deps;
  const parts = partRange(1, request.parts);
  assertDeclaredSize(scope.deps, request.declaredSize);
  assertChangeablePath(scope, site);
  const plan = await planCreation(db, scope, site, { type: 'file', mkdirParents: request.mkdirParents });
  await purgeExpiredUploads(scope.deps);
  const now = clock.now();
  const upload = await insertUpload(db, {
    ref: randomBytes(16).toString('hex'),
    path: plan.path,
    pathKey: site.key,
    requestWorkspaceId: scope.requestWorkspaceId,
    owner: ownerOf(scope),
    mkdirParents: request.mkdirParents,
    createdAt: now,
    expiresAt: now + UPLOAD_LIFETIME_MS,
  });
  return { upload, parts, fileExists: plan.existing !== undefined };
}

/**
 * Where to send `count` parts, from part `first` on, of the caller's upload `ref` of this path.
 * The upload must be the caller's own, open and of this path (see ownUpload): a continuation
 * never begins a new upload.
 */
export async function offerParts(scope: SessionScope, site: SitePath, ref: string, request: { first: number; count: number; declaredSize: number | undefined }): Promise<PartsOffer> {
  const parts = partRange(request.first, request.count);
  assertDeclaredSize(scope.deps, request.declaredSize);
  const upload = await ownUpload(scope, site, ref);
  return { upload, parts, fileExists: false };
}

/** A file declared larger than ATRIUM_MAX_UPLOAD_BYTES is refused before a byte is sent. */
function assertDeclaredSize(deps: FileDeps, declaredSize: number | undefined): void {
  assertDeclaredLength(declaredSize, deps.maxUploadBytes, deps.maxUploadBytes);
}

/**
 * Ends an upload: its parts, in order, become the file, atomically, if the caller may still
 * create or overwrite it. A single part becomes the file's contents as it is; several are joined
 * into a new blob first (streamed, never held in memory). Either way each part is first checked
 * against what was received (received-parts.ts), and the parts as a whole against the size and
 * entity tags the client declares, if it does (upload-declarations.ts). The upload and its parts
 * are removed in the same transaction that makes the file visible.
 */
export async function endUpload(
  scope: SessionScope, site: SitePath, ref: string, options: { providedMtime?: number | undefined } & UploadDeclarations = {},
): Promise<{ entry: Entry; capabilities: Capability[] }> {
  const { db, clock, storage, maxUploadBytes } = scope.deps;
  if (options.providedMtime !== undefined) assertClientTime(options.providedMtime, 'provided_mtime');
  const upload = await ownUpload(scope, site, ref);
  const parts = await partsOf(db, upload.id);
  parts.forEach((part, index) => {
    if (part.partNumber !== index + 1) throw errors.uploadPartGap(index + 1);
  });
  assertPartsAsDeclared(parts, options);
  const fromRun = await contentOfRun(scope.deps, upload.ref, parts);
  // A part of its own becomes the file as it is; a slice of a run (dropped) is copied out of it.
  const single = fromRun === undefined && parts.length === 1 && runSliceOf(parts[0]?.storageKey ?? '') === undefined ? parts[0] : undefined;
  const content: FileContent = await (async () => {
    // Parts were stored unflushed: checked here, and only the file is flushed (received-parts.ts).
    if (single !== undefined) return { storageKey: single.storageKey, size: single.size, ...await keepPartAsFile(storage, single) };
    return fromRun ?? await storeBody(storage, checkedParts(storage, parts), { maxBytes: maxUploadBytes, limitForMessage: maxUploadBytes });
  })().catch(async (error: unknown) => {
    // Another request ended the upload since its parts were listed here, and removed them: this
    // one is answered as if it had come after that one, not as a part lost.
    if ((await findUploadByRef(db, upload.ref)) === undefined) throw errors.fileUploadNotFound();
    throw error;
  });
  let partKeys: string[] = [];
  try {
    const { entry, releasedStorageKeys, capabilities } = await commitFile(db, scope, site, content, {
      mkdirParents: upload.mkdirParents,
      now: clock.now(),
      providedMtime: options.providedMtime ?? null,
      inTransaction: async (tx) => {
        const taken = await takeUpload(tx, upload.id);
        if (taken === undefined) throw errors.fileUploadNotFound();
        // A part sent again while this request joined the parts has replaced (and deleted) a blob
        // read here: the file must not point at it. Nothing is committed; the client ends again.
        if (!sameMembers(taken, parts.map((part) => part.storageKey))) throw errors.uploadPartsChanged();
        partKeys = taken;
      },
    });
    await discardBlobs(scope.deps, [...partKeys.filter((key) => key !== content.storageKey), ...releasedStorageKeys]);
    return { entry, capabilities };
  } catch (error) {
    // A joined blob (or the run's) is this request's own; a single part still belongs to the upload.
    if (single === undefined) await discardBlobs(scope.deps, [content.storageKey]);
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
    if (keys !== undefined) await discardBlobs(deps, keys);
  }
}
