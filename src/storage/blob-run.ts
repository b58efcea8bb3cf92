import { randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { BlobRun, WrittenBlob } from './blob-storage.js';
import { sha256Job, type Sha256Job } from './hashing/sha256-thread.js';

/** Where a write appending to a run puts its bytes (blob-file-writer.ts). */
export interface RunTarget {
  file: FileHandle;
  /** Where the write's first byte goes in the run's file. */
  at: number;
  hash: Sha256Job;
}

/**
 * The local-disk run: a temporary file (in `runs/`, whose files a crash left are cleared at the
 * next start like those of `tmp/`) kept open while writes append to it, one at a time, with a SHA-256 of its bytes kept on
 * the hashing thread. After each write the disk is asked to write what the file holds so far
 * (fdatasync, not waited for), so that `finish` has only the tail left to flush.
 */
export class LocalBlobRun implements BlobRun {
  size = 0;
  private readonly hash = sha256Job();
  /** A write to the run is under way; if it never reports success the run is unusable. */
  private writing = false;
  private broken = false;
  private over = false;
  /** Discarded while a write was under way: removed once that write ends. */
  private discardWhenDone = false;
  private flushing: Promise<void> | undefined;

  private constructor(
    private readonly file: FileHandle,
    private readonly tmpPath: string,
    private readonly publish: (tmpPath: string, key: string) => Promise<void>,
  ) {}

  static async create(dir: string, publish: (tmpPath: string, key: string) => Promise<void>): Promise<LocalBlobRun> {
    await fs.mkdir(dir, { recursive: true });
    const tmpPath = path.join(dir, `${randomUUID()}.tmp`);
    return new LocalBlobRun(await fs.open(tmpPath, 'wx', 0o600), tmpPath, publish);
  }

  /** Begins a write appended to the run; `appended` ends it. One write at a time. */
  beginWrite(): RunTarget {
    if (this.over || this.writing || this.broken) throw new Error('storage: the run takes no more writes');
    this.writing = true;
    return { file: this.file, at: this.size, hash: this.hash };
  }

  /** The write begun last stored `bytes` in the run, all of them. */
  appended(bytes: number): void {
    this.writing = false;
    this.size += bytes;
    if (this.discardWhenDone) return void this.removeFile();
    this.flushing ??= this.file.datasync().catch(() => undefined).finally(() => { this.flushing = undefined; });
  }

  /** The write begun last failed: what it left in the run is unknown. */
  failed(): void {
    this.writing = false;
    this.broken = true;
    if (this.discardWhenDone) void this.removeFile();
  }

  async finish(key: string): Promise<WrittenBlob> {
    if (this.over) throw new Error('storage: the run is over');
    if (this.writing || this.broken) {
      await this.discard();
      throw new Error('storage: the run is incomplete');
    }
    this.over = true;
    try {
      await this.flushing;
      const sha256 = await this.hash.digest();
      await this.file.close();
      await this.publish(this.tmpPath, key);
      return { size: this.size, sha256 };
    } catch (error) {
      await this.removeFile();
      throw error;
    }
  }

  async discard(): Promise<void> {
    if (this.over) return;
    this.over = true;
    this.hash.discard();
    // The file stays open for the write under way, which must not fail for it.
    if (this.writing) this.discardWhenDone = true;
    else await this.removeFile();
  }

  private async removeFile(): Promise<void> {
    await this.flushing;
    await this.file.close().catch(() => undefined);
    await fs.rm(this.tmpPath, { force: true }).catch(() => undefined);
  }
}
