import type { Db } from '../db/database.js';
import type { HistoryEvent } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import type { Clock } from '../lib/time.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { TransferLinks } from './transfer-signing.js';
import type { UploadRuns } from './upload-runs.js';
import { keptStorageKeys } from '../repositories/file-versions.js';

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
  /** How long the trash keeps deletions and how many earlier contents a file keeps: the site's settings, read when needed. */
  readonly keeping: () => Promise<FileKeeping>;
  /** Who follows file actions up (the automations' `action` trigger), if anyone: set by the core. */
  readonly watcher?: FileEventWatcher | undefined;
}

/** The site settings of the trash and versions (docs/files.md#trash-and-versions). */
export interface FileKeeping {
  /** Days a deletion stays in the trash before it is purged (`trash_retention_days`). */
  trashRetentionDays: number;
  /** Earlier contents kept per file (`max_file_versions`); 0 keeps none. */
  versionsKept: number;
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
 * which wastes space but is never visible, so it is not the request's failure. A blob a file
 * version or a trashed entry still names is never deleted, whatever the caller believed: the
 * trash and versions keep contents by reference (docs/files.md#trash-and-versions).
 */
export async function discardBlobs(deps: Pick<FileDeps, 'db' | 'storage'>, keys: Iterable<string>): Promise<void> {
  const candidates = [...new Set(keys)];
  if (candidates.length === 0) return;
  const kept = await keptStorageKeys(deps.db, candidates).catch(() => new Set(candidates));
  await Promise.allSettled(candidates.filter((key) => !kept.has(key)).map((key) => deps.storage.delete(key)));
}
