import type { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import { isForeignKeyViolation } from '../repositories/constraint-errors.js';
import type { FileContent } from '../repositories/entries.js';
import { findUploadById, partsOf, putPart } from '../repositories/uploads.js';
import { discardBlobs, type FileDeps } from './file-deps.js';
import { RunClosedError } from '../storage/blob-storage.js';
import { runSliceOf } from '../storage/storage-keys.js';
import { appendBody, assertDeclaredLength, storeBody } from './stored-content.js';

/** A part as stored: its number, size and SHA-256. */
export interface ReceivedPart {
  partNumber: number;
  size: number;
  sha256: string;
}

/**
 * Streams one part of an upload into storage, through the signed link offered for it. The link
 * carries its own authority: it reaches exactly this part of this upload, so no credential is
 * asked. A part sent twice replaces the earlier copy. Parts together may not exceed the upload
 * limit.
 */
export async function receivePart(deps: FileDeps, token: string, body: Readable | undefined, declaredLength: number | undefined): Promise<ReceivedPart> {
  const parsed = deps.links.parse(token);
  if (parsed.target.kind !== 'upload') throw errors.notFound();
  const upload = await findUploadById(deps.db, parsed.target.uploadId);
  // Without the upload there is nothing to check the signature against: a plain not-found.
  if (upload === undefined) throw errors.notFound();
  await deps.links.verify(parsed, upload.ref);
  const partNumber = parsed.target.part;

  if (upload.expiresAt <= deps.clock.now()) throw errors.fileUploadNotFound();
  const others = (await partsOf(deps.db, upload.id)).filter((part) => part.partNumber !== partNumber);
  const remaining = Math.max(0, deps.maxUploadBytes - others.reduce((sum, part) => sum + part.size, 0));
  assertDeclaredLength(declaredLength, remaining, deps.maxUploadBytes);
  // Not flushed to disk: checked when the upload ends, and only the file flushed (received-parts.ts),
  // unless the part continues the upload's run (upload-runs.ts).
  const limits = { maxBytes: remaining, limitForMessage: deps.maxUploadBytes };
  let claim = await deps.runs.claim(upload.ref, partNumber);
  let content: FileContent | undefined;
  if (claim !== undefined) {
    try {
      content = await appendBody(claim.run, body, limits);
    } catch (error) {
      deps.runs.failed(claim);
      claim = undefined;
      // The run was gone before anything was read: the part is stored on its own instead.
      if (!(error instanceof RunClosedError)) throw error;
    }
  }
  content ??= await storeBody(deps.storage, body, limits, { durable: false, digests: 'sha256' });
  let replaced: string | undefined;
  try {
    replaced = await putPart(deps.db, upload.id, { partNumber, ...content });
  } catch (error) {
    // A slice goes with its run (dropped here), which other parts may still need.
    if (claim !== undefined) deps.runs.failed(claim);
    else await discardBlobs(deps, [content.storageKey]);
    // The upload ended or expired while this part was on its way.
    if (isForeignKeyViolation(error)) throw errors.fileUploadNotFound();
    throw error;
  }
  if (claim !== undefined) deps.runs.appended(claim, content.storageKey);
  if (replaced !== undefined) await discardReplaced(deps, upload.id, replaced);
  return { partNumber, size: content.size, sha256: content.sha256 };
}

/**
 * Deletes the copy of a part sent again. A slice of a run goes only with the run, once no part of
 * the upload refers to it any more; until then the run's other parts need it. (A part another node
 * appends to the run just after this look is lost with it: the upload's end finds it missing, and
 * the client sends it again, as for any lost part.)
 */
async function discardReplaced(deps: FileDeps, uploadId: number, replaced: string): Promise<void> {
  const run = runSliceOf(replaced)?.runKey;
  if (run !== undefined && (await partsOf(deps.db, uploadId)).some((part) => runSliceOf(part.storageKey)?.runKey === run)) return;
  await discardBlobs(deps, [replaced]);
}
