import type { Db } from '../db/database.js';
import type { HistoryEvent } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
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
  /** Who follows file actions up (the automations' `action` trigger), if anyone: set by the core. */
  readonly watcher?: FileEventWatcher | undefined;
}

/**
 * What follows a change's file records in its own transaction: the automations an action
 * triggers are queued with the change, so that neither commits without the other. Files cannot
 * name the features above them (eslint/layers.js), so the core hands one in.
 */
export interface FileEventWatcher {
  /**
   * What `events` call for, looked up with `db` (the change's transaction, or the database for a
   * change made of nothing else, a download's read): undefined when nothing watches them, which
   * is answered without a query while no automation has changed.
   */
  followUp(db: Db, origin: Origin, events: readonly HistoryEvent[]): Promise<FileEventFollowUp | undefined>;
}

/** Writes what the events called for, in the transaction that records them. */
export type FileEventFollowUp = (tx: Db, now: number) => Promise<void>;

/**
 * Deletes blobs the database no longer points at. A failure here leaves an unreferenced blob,
 * which wastes space but is never visible, so it is not the request's failure.
 */
export async function discardBlobs(storage: BlobStorage, keys: Iterable<string>): Promise<void> {
  await Promise.allSettled([...keys].map((key) => storage.delete(key)));
}
