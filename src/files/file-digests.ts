import type { Db } from '../db/database.js';
import { enqueueJob, type JobRunner } from '../jobs/index.js';
import { fillPendingDigests, pendingSha256 } from '../repositories/pending-digests.js';
import { BlobNotFoundError } from '../storage/blob-storage.js';
import { storedBlobDigests } from '../storage/hashing/stored-blob-digests.js';
import type { FileDeps } from './file-deps.js';

/** The background job kind that computes a large file's MD5, SHA-1 and CRC-32 (docs/background-jobs.md). */
export const FILE_DIGESTS_KIND = 'file-digests';

/**
 * Queues the computing of a blob's MD5, SHA-1 and CRC-32, in the transaction that makes it a
 * file's contents, so that the file never stays without them: the job commits with the file or
 * not at all. A large upload's bytes are hashed with SHA-256 alone as they arrive (the blob's
 * identity, checked when an upload's parts are joined); its other digests took three quarters of
 * an upload's CPU, so they are computed once it has ended, as Files.com does (its `md5` may be
 * blank at first). One job per blob, ever: a second queuing of the same blob (a copy of a file
 * still waiting) is the first job.
 */
export async function queueFileDigests(tx: Db, storageKey: string, now: number): Promise<void> {
  await enqueueJob(tx, { kind: FILE_DIGESTS_KIND, payload: { storageKey }, runAt: now, dedupeKey: `${FILE_DIGESTS_KIND}:${storageKey}` }, now);
}

/**
 * Makes the job runner compute the digests queued by queueFileDigests. Reads the blob back and
 * records its digests on every file, version or trashed file that holds it and still lacks them
 * (repositories/pending-digests.ts). Idempotent, as a job's handler must be: a blob whose holders
 * are gone (deleted, purged) or filled is done without reading it. Bytes whose SHA-256 is not the
 * one recorded are not what was stored: the job fails (and is retried, then kept as failed)
 * rather than record digests of other bytes.
 */
export function registerFileDigests(jobs: JobRunner, deps: Pick<FileDeps, 'db' | 'storage'>): void {
  jobs.register(FILE_DIGESTS_KIND, async (payload, _job, context) => {
    const { storageKey } = payload as { storageKey: string };
    const sha256 = await pendingSha256(deps.db, storageKey);
    if (sha256 === undefined) return;
    let digests;
    try {
      digests = await storedBlobDigests(deps.storage, storageKey, context.signal);
    } catch (error) {
      // Deleted since: nothing holds it any more, or what does will never be readable.
      if (error instanceof BlobNotFoundError) return;
      throw error;
    }
    if (digests.sha256 !== sha256) throw new Error(`blob ${storageKey} no longer holds the bytes stored under it (SHA-256 ${digests.sha256}, recorded ${sha256})`);
    await fillPendingDigests(deps.db, storageKey, digests);
  });
}
