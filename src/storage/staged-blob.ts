import { randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BlobTooLargeError, type WrittenBlob } from './blob-storage.js';
import { InlineDigests, type ContentDigests } from './hashing/content-digests.js';
import { writeAll } from './write-all.js';

/**
 * A blob being written at offsets, in any order (an SFTP client pipelines its WRITE requests and
 * may resume at an offset), before it becomes a blob. It lives as a temporary file: nothing reads
 * it, and a crash leaves only a file that the start-up sweep of temporary files removes. `finish`
 * makes it a blob under a new key, with the same all-or-nothing rule as BlobStorage.write;
 * `discard` removes it.
 */
export interface StagedBlob {
  /** The end of the furthest byte written so far (a gap reads as zeros, as in a sparse file). */
  readonly size: number;
  /**
   * Writes `bytes` at `position`; past `maxBytes` is BlobTooLargeError and writes nothing. The
   * staged blob keeps `bytes` (it may hold them until a later write or `finish`): the caller
   * must not change them afterwards.
   */
  write(bytes: Uint8Array, position: number): Promise<void>;
  /** The bytes of `from` (a blob) become the staged start; used to append to or resume a file. */
  fill(from: string): Promise<void>;
  /** Cuts the staged bytes to `size`, or extends them with zeros; past `maxBytes` is BlobTooLargeError. */
  truncate(size: number): Promise<void>;
  /** Up to `length` of the bytes staged so far from `position` (fewer at the end; a gap reads as zeros). */
  read(position: number, length: number): Promise<Buffer>;
  finish(key: string): Promise<WrittenBlob>;
  discard(): Promise<void>;
}

/** What LocalDiskStorage gives StagedBlob: where temporary files go, and how one becomes a blob. */
export interface StagingPlace {
  tmpDir: string;
  /** Path of an existing blob (for `fill`). */
  pathOf(key: string): string;
  /** Flushes and renames the temporary file into the blob's place. */
  publish(tmpPath: string, key: string): Promise<void>;
}

/** Bytes that follow one another are gathered up to this much before one write to disk. */
const GATHER_BYTES = 1024 * 1024;

/**
 * The local-disk staged blob. While bytes arrive in order from the start, which is what clients
 * do, they are hashed on the way; only an out-of-order file is read back once at `finish` for
 * its digests. Consecutive writes (an SFTP client sends 32 KiB at a time) are gathered and
 * written together, so a gigabyte is a thousand writes, not thirty thousand. Memory stays flat
 * whatever the size: at most GATHER_BYTES wait in memory.
 */
export class LocalStagedBlob implements StagedBlob {
  private handle: FileHandle | undefined;
  private readonly tmpPath: string;
  private hash = new InlineDigests();
  /** Bytes hashed so far, all of them in order from 0; -1 once a write broke the order. */
  private hashedUpTo = 0;
  /** Consecutive bytes not yet on disk, from `gatheredAt`. */
  private gathered: Uint8Array[] = [];
  private gatheredAt = 0;
  private gatheredBytes = 0;
  size = 0;

  private constructor(private readonly place: StagingPlace, private readonly maxBytes: number) {
    this.tmpPath = path.join(place.tmpDir, `${randomUUID()}.tmp`);
  }

  static async create(place: StagingPlace, maxBytes: number): Promise<LocalStagedBlob> {
    const staged = new LocalStagedBlob(place, maxBytes);
    await fs.mkdir(place.tmpDir, { recursive: true });
    staged.handle = await fs.open(staged.tmpPath, 'wx+', 0o600);
    return staged;
  }

  async write(bytes: Uint8Array, position: number): Promise<void> {
    const end = position + bytes.length;
    if (!Number.isSafeInteger(position) || position < 0 || end > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    this.open();
    if (this.gatheredBytes > 0 && position !== this.gatheredAt + this.gatheredBytes) await this.flush();
    if (this.gatheredBytes === 0) this.gatheredAt = position;
    this.gathered.push(bytes);
    this.gatheredBytes += bytes.length;
    this.size = Math.max(this.size, end);
    if (this.gatheredBytes >= GATHER_BYTES) await this.flush();
  }

  /** Writes the gathered bytes to disk, hashing them when they continue the hashed part. */
  private async flush(): Promise<void> {
    if (this.gatheredBytes === 0) return;
    const pieces = this.gathered;
    const position = this.gatheredAt;
    const length = this.gatheredBytes;
    this.gathered = [];
    this.gatheredBytes = 0;
    const buffer = pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces, length);
    await writeAll(this.open(), buffer, position);
    if (this.hashedUpTo === position) {
      this.hash.update(buffer);
      this.hashedUpTo = position + length;
    } else {
      // A rewrite of hashed bytes, or a gap: the bytes are read back once at the end instead.
      this.hashedUpTo = -1;
    }
  }

  async fill(from: string): Promise<void> {
    await this.flush();
    await this.open().close();
    this.handle = undefined;
    await fs.copyFile(this.place.pathOf(from), this.tmpPath);
    this.handle = await fs.open(this.tmpPath, 'r+');
    this.size = (await this.handle.stat()).size;
    if (this.size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    this.hashedUpTo = -1;
  }

  async truncate(size: number): Promise<void> {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    await this.flush();
    await this.open().truncate(size);
    this.size = size;
    // Hashed bytes cut away (or turned to zeros by a later extension) are no longer the file's.
    if (this.hashedUpTo > size) this.hashedUpTo = -1;
  }

  async read(position: number, length: number): Promise<Buffer> {
    await this.flush();
    const wanted = Math.max(0, Math.min(length, this.size - position));
    const buffer = Buffer.alloc(wanted);
    let got = 0;
    while (got < wanted) {
      const { bytesRead } = await this.open().read(buffer, got, wanted - got, position + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buffer.subarray(0, got);
  }

  async finish(key: string): Promise<WrittenBlob> {
    await this.flush();
    const handle = this.open();
    const digests = this.hashedUpTo === this.size ? this.hash.digest() : await digestOf(handle, this.size);
    await handle.close();
    this.handle = undefined;
    try {
      await this.place.publish(this.tmpPath, key);
    } catch (error) {
      await fs.rm(this.tmpPath, { force: true }).catch(() => undefined);
      throw error;
    }
    return { size: this.size, ...digests };
  }

  async discard(): Promise<void> {
    this.gathered = [];
    this.gatheredBytes = 0;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await fs.rm(this.tmpPath, { force: true });
  }

  private open(): FileHandle {
    if (this.handle === undefined) throw new Error('storage: the staged blob is finished or discarded');
    return this.handle;
  }
}

async function digestOf(handle: FileHandle, size: number): Promise<ContentDigests> {
  const hash = new InlineDigests();
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest();
}
