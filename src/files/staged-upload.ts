import type { SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import type { Entry } from '../repositories/entries.js';
import { BlobTooLargeError } from '../storage/blob-storage.js';
import type { StagedBlob } from '../storage/staged-blob.js';
import { newStorageKey } from '../storage/storage-keys.js';
import { planCreation } from './creation-plan.js';
import { commitFile } from './file-commit.js';
import { discardBlobs } from './file-deps.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';

/** How a client opens a file for writing (SFTP's OPEN flags, in words). */
export interface StagedUploadOptions {
  /** Start empty; otherwise the file's current bytes are the start (append, resume). */
  truncate: boolean;
  /** Refuse if the file exists (`processing-failure/destination-exists`). */
  exclusive: boolean;
  /** Refuse if the file does not exist (`not-found/file-not-found`): an open without create. */
  mustExist: boolean;
  /** Every write goes to the end, whatever its offset. */
  append: boolean;
}

/**
 * A file written at offsets, in any order, and made visible only when the writer says it is
 * complete (SFTP: WRITE requests, then CLOSE). The right to create or overwrite is decided when it
 * begins, so no bytes travel in vain, and again in the commit's transaction, which is the REST
 * uploads' own (file-commit.ts): History records `create` or `update` with the session's door.
 * Until then the bytes are a staged blob that no one can see; `abandon` (a disconnect, an error)
 * removes them and changes nothing.
 */
export class StagedUpload {
  private written = false;

  private constructor(
    private readonly scope: SessionScope,
    private readonly site: SitePath,
    private readonly staged: StagedBlob,
    /** Whether committing changes anything without a write: a new or truncated file does. */
    private readonly changedOnOpen: boolean,
    private readonly append: boolean,
  ) {}

  static async begin(scope: SessionScope, site: SitePath, options: StagedUploadOptions): Promise<StagedUpload> {
    const { db, storage, maxUploadBytes } = scope.deps;
    assertChangeablePath(scope, site);
    const plan = await planCreation(db, scope, site, { type: 'file', mkdirParents: false });
    if (plan.existing === undefined && options.mustExist) throw errors.fileNotFound();
    if (plan.existing !== undefined && options.exclusive) throw errors.destinationExists();
    const staged = await storage.stage({ maxBytes: maxUploadBytes });
    try {
      const keep = plan.existing?.storageKey ?? null;
      if (!options.truncate && keep !== null) await staged.fill(keep);
    } catch (error) {
      await staged.discard();
      throw tooLargeAsUploadError(error, maxUploadBytes);
    }
    return new StagedUpload(scope, site, staged, plan.existing === undefined || options.truncate, options.append);
  }

  /** Bytes of the file so far (what an FSTAT of the open file answers). */
  get size(): number {
    return this.staged.size;
  }

  /** Writes at `offset` (at the end when appending). Past ATRIUM_MAX_UPLOAD_BYTES is `upload-too-large`. */
  async write(bytes: Uint8Array, offset: number): Promise<void> {
    try {
      await this.staged.write(bytes, this.append ? this.staged.size : offset);
      this.written = true;
    } catch (error) {
      throw tooLargeAsUploadError(error, this.scope.deps.maxUploadBytes);
    }
  }

  /** Up to `length` bytes of the file as written so far, from `offset` (a client that opened it to read and write). */
  read(offset: number, length: number): Promise<Buffer> {
    return this.staged.read(offset, length);
  }

  /** Cuts the file being written to `size` bytes, or extends it with zeros (a client's truncate). */
  async truncate(size: number): Promise<void> {
    try {
      await this.staged.truncate(size);
      this.written = true;
    } catch (error) {
      throw tooLargeAsUploadError(error, this.scope.deps.maxUploadBytes);
    }
  }

  /**
   * Makes the bytes the file at the path, if the caller may still create or overwrite it; an open
   * that changed nothing (an existing file, not truncated, never written) commits nothing.
   * Answers the file, or undefined when nothing changed.
   */
  async commit(): Promise<Entry | undefined> {
    if (!this.written && !this.changedOnOpen) {
      await this.staged.discard();
      return undefined;
    }
    const { db, clock } = this.scope.deps;
    const storageKey = newStorageKey();
    const written = await this.staged.finish(storageKey).catch(async (error: unknown) => {
      await this.staged.discard().catch(() => undefined);
      throw error;
    });
    try {
      const { entry, releasedStorageKeys } = await commitFile(db, this.scope, this.site, { storageKey, ...written }, { mkdirParents: false, now: clock.now() });
      await discardBlobs(this.scope.deps, releasedStorageKeys);
      return entry;
    } catch (error) {
      await discardBlobs(this.scope.deps, [storageKey]);
      throw error;
    }
  }

  /** Drops the staged bytes: nothing was, or will be, visible. */
  async abandon(): Promise<void> {
    await this.staged.discard().catch(() => undefined);
  }
}

function tooLargeAsUploadError(error: unknown, maxUploadBytes: number): unknown {
  return error instanceof BlobTooLargeError ? errors.uploadTooLarge(maxUploadBytes) : error;
}
