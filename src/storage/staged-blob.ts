import { randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BlobTooLargeError, type WrittenBlob } from './blob-storage.js';
import { INLINE_HASH_BYTES, InlineDigests, type ContentDigests } from './hashing/content-digests.js';
import { digestJob, type DigestJob } from './hashing/digest-thread.js';
import { BLOCK_BYTES, giveBack, takeBlock } from './hashing/shared-blocks.js';
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

/**
 * Bytes that follow one another are gathered up to this much before one write to disk: one block
 * of memory shared with the hashing thread, which hashes them while they are written.
 */
const GATHER_BYTES = BLOCK_BYTES;

/**
 * The local-disk staged blob. While bytes arrive in order from the start, which is what clients
 * do, they are hashed on the way, on the hashing thread (digest-thread.ts) as REST uploads are,
 * so the event loop answers other requests meanwhile; only an out-of-order file is read back
 * once at `finish` for its digests (on the hashing thread too), and a small file written in order
 * is hashed on the event loop, where it costs less than the round trip. Consecutive writes (an
 * SFTP client sends 32 KiB at a time) are gathered and written together, so a gigabyte is a
 * thousand writes, not thirty thousand. A full block is written and hashed while the next one
 * gathers (flushBehind). Memory stays flat whatever the size: at most twice GATHER_BYTES wait in
 * memory.
 */
export class LocalStagedBlob implements StagedBlob {
  private handle: FileHandle | undefined;
  private readonly tmpPath: string;
  /** The hashing thread's job for the bytes in order from 0, begun with the first block hashed. */
  private hash: DigestJob | undefined;
  /** Bytes hashed so far, all of them in order from 0; -1 once a write broke the order. */
  private hashedUpTo = 0;
  /** Consecutive bytes not yet on disk, from `gatheredAt`. */
  private gathered: Uint8Array[] = [];
  private gatheredAt = 0;
  private gatheredBytes = 0;
  /** The full block being written and hashed while the next one gathers (flushBehind); its failure is the next call's. */
  private behind: Promise<void> | undefined;
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
    const follows = position === this.gatheredAt + this.gatheredBytes;
    // Not following on, or not fitting the block beside what is gathered: what is gathered goes first.
    if (this.gatheredBytes > 0 && !follows) await this.flush();
    else if (this.gatheredBytes > 0 && this.gatheredBytes + bytes.length > GATHER_BYTES) await this.flushBehind();
    if (this.gatheredBytes === 0) this.gatheredAt = position;
    this.gathered.push(bytes);
    this.gatheredBytes += bytes.length;
    this.size = Math.max(this.size, end);
    if (this.gatheredBytes >= GATHER_BYTES) await this.flushBehind();
  }

  /**
   * A full block goes to the disk and the hashing thread while the caller goes on: the write
   * returns once the block before it is done, so one block is on its way while the next gathers.
   * Waiting for each block's own hashing held every next write back behind it, and an SFTP upload
   * then ran at the speed of receiving and hashing one after the other (the event loop idle 40% of
   * the time). Its failure fails the next write, or `finish`, so a file with a hole is never made.
   */
  private async flushBehind(): Promise<void> {
    await this.settled();
    const behind = this.writeGathered();
    behind.catch(() => undefined);
    this.behind = behind;
  }

  /** Waits for the block on its way, if any; its failure is thrown here. */
  private async settled(): Promise<void> {
    const behind = this.behind;
    if (behind === undefined) return;
    this.behind = undefined;
    await behind;
  }

  /** Every gathered byte on disk (and hashed, where it continues the hashed part). */
  private async flush(): Promise<void> {
    await this.settled();
    await this.writeGathered();
  }

  /**
   * Writes the gathered bytes to disk; when they continue the hashed part, from memory shared with
   * the hashing thread, which hashes them meanwhile. What is gathered is taken before the first
   * wait, so bytes written meanwhile gather afresh.
   */
  private async writeGathered(): Promise<void> {
    if (this.gatheredBytes === 0) return;
    const pieces = this.gathered;
    const position = this.gatheredAt;
    const length = this.gatheredBytes;
    this.gathered = [];
    this.gatheredBytes = 0;
    if (this.hashedUpTo !== position) {
      // A rewrite of hashed bytes, or a gap: the bytes are read back once at the end instead.
      this.stopHashing();
      await writeAll(this.open(), pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces, length), position);
      return;
    }
    const shared = inSharedMemory(pieces, length);
    this.hash ??= digestJob('all-if-small');
    // Both finish before the memory is reused, even when one of them fails.
    const [written, hashed] = await Promise.allSettled([writeAll(this.open(), shared.bytes, position), this.hash.update(shared.bytes)]);
    shared.release();
    if (written.status === 'rejected') throw written.reason;
    if (hashed.status === 'rejected') throw hashed.reason;
    this.hashedUpTo = position + length;
  }

  /** The in-order hashing is over: the digests will come from reading the file back. */
  private stopHashing(): void {
    this.hash?.discard();
    this.hash = undefined;
    this.hashedUpTo = -1;
  }

  async fill(from: string): Promise<void> {
    await this.flush();
    await this.open().close();
    this.handle = undefined;
    await fs.copyFile(this.place.pathOf(from), this.tmpPath);
    this.handle = await fs.open(this.tmpPath, 'r+');
    this.size = (await this.handle.stat()).size;
    if (this.size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    this.stopHashing();
  }

  async truncate(size: number): Promise<void> {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    await this.flush();
    await this.open().truncate(size);
    this.size = size;
    // Hashed bytes cut away (or turned to zeros by a later extension) are no longer the file's.
    if (this.hashedUpTo > size) this.stopHashing();
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
    const digests = await this.finalDigests();
    const handle = this.open();
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

  /** The digests of the whole staged file, once its last gathered bytes are written. */
  private async finalDigests(): Promise<ContentDigests> {
    await this.settled();
    if (this.hash === undefined && this.hashedUpTo === 0 && this.gatheredAt === 0 && this.gatheredBytes === this.size && this.size <= INLINE_HASH_BYTES) {
      // A small file written in order, still all in memory: hashed here, cheaper than the round trip.
      const bytes = Buffer.concat(this.gathered, this.gatheredBytes);
      this.gathered = [];
      this.gatheredBytes = 0;
      await writeAll(this.open(), bytes, 0);
      return new InlineDigests().update(bytes).digest();
    }
    await this.flush();
    if (this.hashedUpTo === this.size && this.hash !== undefined) return this.hash.digest();
    this.stopHashing();
    return digestOf(this.open(), this.size);
  }

  async discard(): Promise<void> {
    await this.behind?.catch(() => undefined);
    this.behind = undefined;
    this.hash?.discard();
    this.hash = undefined;
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

/**
 * The pieces copied into one piece of memory shared with the hashing thread: a reused block
 * (shared-blocks.ts) when they fit, which is always but for a single write larger than a block.
 */
function inSharedMemory(pieces: Uint8Array[], length: number): { bytes: Buffer; release(): void } {
  const reused = length <= BLOCK_BYTES;
  const memory = reused ? takeBlock() : Buffer.from(new SharedArrayBuffer(length));
  let at = 0;
  for (const piece of pieces) {
    memory.set(piece, at);
    at += piece.length;
  }
  return { bytes: memory.subarray(0, length), release: () => { if (reused) giveBack(memory); } };
}

/** The digests of a file read back (one written out of order): on the hashing thread unless small. */
async function digestOf(handle: FileHandle, size: number): Promise<ContentDigests> {
  if (size <= INLINE_HASH_BYTES) {
    const bytes = Buffer.alloc(size);
    await readFully(handle, bytes, 0);
    return new InlineDigests().update(bytes).digest();
  }
  const job = digestJob('all-if-small');
  const block = takeBlock();
  try {
    for (let position = 0; position < size;) {
      const length = Math.min(block.length, size - position);
      const view = block.subarray(0, length);
      await readFully(handle, view, position);
      await job.update(view);
      position += length;
    }
    return await job.digest();
  } catch (error) {
    job.discard();
    throw error;
  } finally {
    giveBack(block);
  }
}

/** Fills `into` from the file at `position`; a file shorter than that reads as zeros past its end. */
async function readFully(handle: FileHandle, into: Buffer, position: number): Promise<void> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await handle.read(into, got, into.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  into.fill(0, got);
}
