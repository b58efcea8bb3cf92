import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { RunClosedError, type BlobRun, type WrittenBlob } from './blob-storage.js';
import { writeAndClose } from './blob-file-writer.js';
import { holdEarlySourceErrors } from './early-source-errors.js';
import { digestJob } from './hashing/digest-thread.js';
import { newStorageKey, runSliceKey } from './storage-keys.js';
import { syncFile } from './sync-file.js';

/**
 * The local-disk run: a file in `runs/` that writes append to, one at a time, each hashed twice on
 * the hashing thread (on its own, and into the SHA-256 of the whole run) as it is written once.
 * Each write is a slice of the run, readable by its key from any process sharing the directory
 * (local-disk-storage.ts), for as long as the run's file is kept. After each write the disk is
 * asked to write what the file holds so far (fdatasync, not waited for), so that `finish` has
 * only the tail left to flush.
 *
 * The file is opened for each write and closed before the write reports success: on a network
 * file system, closing is what makes the bytes visible to the other nodes (close-to-open), as it
 * is for a blob of its own.
 */
export class LocalBlobRun implements BlobRun {
  size = 0;
  /**
   * The SHA-256 of the whole run (the file's; its other digests are computed once it is a file,
   * content-digests.ts); each slice gets only its own SHA-256.
   */
  private readonly hash = digestJob('all-if-small');
  /** A write to the run is under way. */
  private writing = false;
  /** A write failed: what it left after `size` is unknown, so the run can no longer be finished. */
  private broken = false;
  /** Takes no more writes: finished, closed or discarded. */
  private ended = false;
  /** Closed or discarded while a write was under way: done once it ends. */
  private afterWrite: (() => Promise<void>) | undefined;
  private flushing: Promise<void> | undefined;

  private constructor(
    readonly key: string,
    private readonly file: string,
    private readonly keepAs: (runFile: string, key: string) => Promise<void>,
  ) {}

  static async create(dir: string, keepAs: (runFile: string, key: string) => Promise<void>): Promise<LocalBlobRun> {
    await fs.mkdir(dir, { recursive: true });
    const key = newStorageKey();
    const file = path.join(dir, `${key}.run`);
    await (await fs.open(file, 'wx', 0o600)).close();
    return new LocalBlobRun(key, file, keepAs);
  }

  async append(source: Readable, options: { maxBytes: number }): Promise<WrittenBlob & { storageKey: string }> {
    if (this.ended || this.writing || this.broken) throw new RunClosedError();
    this.writing = true;
    const release = holdEarlySourceErrors(source);
    let handle: FileHandle;
    try {
      handle = await fs.open(this.file, 'r+');
    } catch {
      // Removed meanwhile (its upload ended or was purged elsewhere): nothing of `source` was read.
      release();
      this.writing = false;
      this.broken = true;
      throw new RunClosedError();
    }
    const offset = this.size;
    try {
      const written = await writeAndClose(handle, source, { maxBytes: options.maxBytes, baseOffset: offset, alsoHash: this.hash, digests: 'sha256' });
      this.size += written.size;
      this.flushSoon();
      return { storageKey: runSliceKey({ runKey: this.key, offset, size: written.size }), ...written };
    } catch (error) {
      this.broken = true;
      throw error;
    } finally {
      release();
      this.writing = false;
      await this.afterWrite?.();
    }
  }

  async finish(key: string): Promise<WrittenBlob> {
    if (this.ended || this.writing || this.broken) throw new Error('storage: the run cannot become a blob');
    this.ended = true;
    await this.flushing;
    const digests = await this.hash.digest();
    await this.keepAs(this.file, key);
    return { size: this.size, ...digests };
  }

  close(): Promise<void> {
    return this.end(async () => undefined);
  }

  discard(): Promise<void> {
    return this.end(() => this.removeFile());
  }

  /** No more writes; the hash is dropped and `then` done, once the write under way (if any) ends. */
  private async end(then: () => Promise<void>): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const finish = async () => {
      this.hash.discard();
      await then();
    };
    if (this.writing) this.afterWrite = finish;
    else await finish();
  }

  private flushSoon(): void {
    // A failure here is not the write's: finish's own flush reports any real one.
    this.flushing ??= syncFile(this.file, { dataOnly: true }).catch(() => undefined).finally(() => { this.flushing = undefined; });
  }

  private async removeFile(): Promise<void> {
    await this.flushing;
    await fs.rm(this.file, { force: true }).catch(() => undefined);
  }
}
