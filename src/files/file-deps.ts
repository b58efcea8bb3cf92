import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { TransferLinks } from './transfer-signing.js';
import type { UploadRuns } from './upload-runs.js';

/** What file operations are made of: the database, the clock, the blob store, the signed links, the upload limit. */
export interface FileDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly storage: BlobStorage;
  readonly links: TransferLinks;
  /** ATRIUM_MAX_UPLOAD_BYTES. */
  readonly maxUploadBytes: number;
  /** Uploads whose parts arrive in order, kept whole as they arrive (upload-runs.ts). */
  readonly runs: UploadRuns;
}

/**
 * Deletes blobs the database no longer points at. A failure here leaves an unreferenced blob,
 * which wastes space but is never visible, so it is not the request's failure.
 */
export async function discardBlobs(storage: BlobStorage, keys: Iterable<string>): Promise<void> {
  await Promise.allSettled([...keys].map((key) => storage.delete(key)));
}
