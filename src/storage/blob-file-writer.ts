import type { FileHandle } from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type WrittenBlob } from './blob-storage.js';
import { passedThrough } from './garbage-pacer.js';
import { BLOCK_BYTES, giveBack, takeBlock } from './hashing/shared-blocks.js';
import { INLINE_HASH_BYTES, InlineDigests, type DigestChoice } from './hashing/content-digests.js';
import { digestJob, type DigestJob } from './hashing/digest-thread.js';
import { writeAll } from './write-all.js';

/** Blocks written and hashed at once while the next one fills; past that the source waits. */
const BLOCKS_IN_FLIGHT = 3;

/**
 * Writes a blob's bytes to its open temporary file while counting and hashing them, and fails as
 * soon as more than `maxBytes` have arrived, so an over-large body is refused without being stored
 * whole first. Chunks are gathered into blocks of a MiB (shared-blocks.ts): each full block goes
 * down in one positioned write while the hashing thread hashes it, so chunks that arrive
 * meanwhile cost the event loop a copy and nothing else.
 *
 * With `flushEveryBytes`, the disk is asked every so many bytes to write what the file holds so
 * far (fdatasync, one at a time, not waited for). Without it the kernel keeps a new file's pages
 * in memory until the final fsync, which then writes all of it while nothing else happens; with
 * it the disk writes while the rest still arrives, and the final fsync (still made before the
 * file is renamed into place) has only the tail left. It adds flushes, never removes one.
 */
export class BlobFileWriter extends Writable {
  /** The hashing thread's job, begun with the first block (none for a small blob). */
  private hash: DigestJob | undefined;
  private block: Buffer | undefined;
  private filled = 0;
  /** Where the block being filled starts in the file. */
  private position = 0;
  /** Blocks being written and hashed, oldest first; each leaves the list when done. */
  private readonly inFlight: Promise<void>[] = [];
  private failure: unknown;
  private sinceFlush = 0;
  private flushing: Promise<void> | undefined;
  private written: WrittenBlob | undefined;
  size = 0;

  /**
   * `baseOffset`: where the first byte goes in the file (a run's end, blob-run.ts); `alsoHash`:
   * each block is also added to those digests (the whole run's), from the same shared memory;
   * `digests`: which digests of these bytes to compute (by default all of a small blob's, and a
   * larger one's SHA-256 alone, the rest being computed after its upload: content-digests.ts).
   */
  constructor(private readonly file: FileHandle, private readonly options: { maxBytes: number; flushEveryBytes?: number; baseOffset?: number; alsoHash?: DigestJob; digests?: DigestChoice }) {
    super({ highWaterMark: BLOCK_BYTES });
  }

  /** Size and digests of what was written, once the stream has finished. */
  get result(): WrittenBlob {
    if (this.written === undefined) throw new Error('the blob is not written yet');
    return this.written;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.take(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.finish().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.hash?.discard();
    // No write may still be under way when the caller closes or removes the file.
    this.settled().then(() => callback(error), () => callback(error));
  }

  /** Waits for every write and flush still under way. */
  async settled(): Promise<void> {
    await Promise.all(this.inFlight);
    await this.flushing;
  }

  private async take(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.size > this.options.maxBytes) throw new BlobTooLargeError(this.options.maxBytes);
    let offset = 0;
    while (offset < chunk.length) {
      this.block ??= takeBlock();
      const copied = chunk.copy(this.block, this.filled, offset);
      offset += copied;
      this.filled += copied;
      if (this.filled === BLOCK_BYTES) await this.sendBlock();
    }
    // The chunk is copied: it is garbage from here on.
    passedThrough(chunk.length);
  }

  private async finish(): Promise<void> {
    if (this.position === 0 && this.filled <= INLINE_HASH_BYTES && this.options.alsoHash === undefined) return this.finishSmall();
    if (this.filled > 0) await this.sendBlock();
    await this.settled();
    this.throwIfFailed();
    this.written = { size: this.size, ...await (this.hash ?? digestJob(this.choice)).digest() };
  }

  private async finishSmall(): Promise<void> {
    const block = this.block;
    const bytes = block?.subarray(0, this.filled) ?? Buffer.alloc(0);
    await writeAll(this.file, bytes, this.options.baseOffset ?? 0);
    this.written = { size: this.size, ...new InlineDigests(this.choice).update(bytes).digest() };
    if (block !== undefined) giveBack(block);
    this.block = undefined;
  }

  /** The filled block goes to the disk and to the hashing thread at once. */
  private async sendBlock(): Promise<void> {
    // A write still filling its block when the stream was destroyed goes no further.
    if (this.destroyed) throw new Error('the blob write was abandoned');
    const block = this.block as Buffer;
    const bytes = block.subarray(0, this.filled);
    const at = this.position;
    this.block = undefined;
    this.position += this.filled;
    this.filled = 0;
    this.hash ??= digestJob(this.choice);
    const work = [writeAll(this.file, bytes, (this.options.baseOffset ?? 0) + at), this.hash.update(bytes)];
    if (this.options.alsoHash !== undefined) work.push(this.options.alsoHash.update(bytes));
    const done: Promise<void> = Promise.all(work)
      .then(() => giveBack(block), (error: unknown) => { this.failure ??= error; })
      .then(() => { this.inFlight.splice(this.inFlight.indexOf(done), 1); });
    this.inFlight.push(done);
    this.flushNowAndThen(bytes.length);
    while (this.inFlight.length >= BLOCKS_IN_FLIGHT) await this.inFlight[0];
    this.throwIfFailed();
  }

  private get choice(): DigestChoice {
    return this.options.digests ?? 'all-if-small';
  }

  private flushNowAndThen(bytes: number): void {
    if (this.options.flushEveryBytes === undefined) return;
    this.sinceFlush += bytes;
    if (this.sinceFlush < this.options.flushEveryBytes || this.flushing !== undefined) return;
    this.sinceFlush = 0;
    // A failure here is not the write's: the final fsync reports any real one.
    this.flushing = this.file.datasync().catch(() => undefined).finally(() => { this.flushing = undefined; });
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * Writes all of `source` into `file` through a BlobFileWriter and closes the file once no write
 * is under way, whether or not it succeeded: the size and digests of what was written.
 */
export async function writeAndClose(file: FileHandle, source: Readable, options: ConstructorParameters<typeof BlobFileWriter>[1]): Promise<WrittenBlob> {
  const writer = new BlobFileWriter(file, options);
  try {
    await pipeline(source, writer);
    return writer.result;
  } finally {
    await writer.settled();
    await file.close();
  }
}
