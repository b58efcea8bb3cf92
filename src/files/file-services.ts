import path from 'node:path';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../config/load-config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { LocalDiskStorage } from '../storage/local-disk-storage.js';
import { TransferLinks } from './transfer-signing.js';

/** A crash's leftovers in the temporary directory are removed once this old. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** What the file and folder routes share for the life of the app. */
export interface FileServices {
  readonly storage: BlobStorage;
  readonly links: TransferLinks;
  readonly maxUploadBytes: number;
  /** Clears what a previous run may have left half-written; run once as the app starts. */
  startUp(): Promise<void>;
}

/**
 * File contents go under `<dataDir>/files`. Without a data directory (an app built only to
 * answer other requests, in tests) every storage operation fails loudly.
 */
export function createFileServices(db: Db, clock: Clock, options: { dataDir: string | undefined; maxUploadBytes: number | undefined }): FileServices {
  const disk = options.dataDir === undefined ? undefined : new LocalDiskStorage(path.join(options.dataDir, 'files'));
  return {
    storage: disk ?? noStorage,
    links: new TransferLinks(db, clock),
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    async startUp() {
      // File times are the file system's, so they are compared with the real clock.
      await disk?.removeStaleTemporaryFiles(Date.now(), STALE_TEMPORARY_MS);
    },
  };
}

const unavailable = async (): Promise<never> => {
  throw new Error('file storage is not configured (no data directory)');
};
const noStorage: BlobStorage = { write: unavailable, read: unavailable, copy: unavailable, delete: unavailable };
