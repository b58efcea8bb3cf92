import { randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { DigestChoice } from './hashing/content-digests.js';
import { BlobNotFoundError, type BlobRun, type BlobStorage, type ByteRange, type WrittenBlob } from './blob-storage.js';
import { LocalBlobRun } from './blob-run.js';
import { holdEarlySourceErrors } from './early-source-errors.js';
import { writeAndClose } from './blob-file-writer.js';
import { passedThrough } from './garbage-pacer.js';
import { LocalStagedBlob, type StagedBlob } from './staged-blob.js';
import { syncFile } from './sync-file.js';
import { assertStorageKey, runSliceOf, type RunSlice } from './storage-keys.js';

/**
 * Bytes read from a blob at a time. The default 64 KiB makes a cold read wait on the disk once
 * per 64 KiB, one request in flight: a 1 GiB download went at a sixth of what the disk gives.
 * A MiB per read keeps the disk busy and costs a sixteenth of the reads and chunks; what waits in
 * memory is still a handful of chunks per stream.
 */
const READ_CHUNK_BYTES = 1024 * 1024;
/** How often a durable blob being written is pushed to the disk before its final fsync (blob-file-writer.ts). */
const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * Blobs as files under `<root>/objects/<first two hex digits>/<key>`, written first to
 * `<root>/tmp/` and renamed into place once complete and flushed to disk. A rename within one file
 * system is atomic, so a reader sees a whole blob or none, and a crash mid-write leaves only a
 * temporary file, which removeStaleTemporaryFiles clears on a later start.
 */
export class LocalDiskStorage implements BlobStorage {
  private readonly objectsDir: string;
  private readonly tmpDir: string;
  /** Uploads' runs (blob-run.ts), `<run key>.run`: their slices are the parts of uploads in progress. */
  private readonly runsDir: string;

  constructor(readonly root: string) {
    this.objectsDir = path.join(root, 'objects');
    this.tmpDir = path.join(root, 'tmp');
    this.runsDir = path.join(root, 'runs');
  }

  async write(key: string, source: Readable, options: { maxBytes: number; durable?: boolean; digests?: DigestChoice }): Promise<WrittenBlob> {
    const durable = options.durable ?? true;
    let written: WrittenBlob | undefined;
    const release = holdEarlySourceErrors(source);
    try {
      await this.writeThrough(key, async (tmpPath) => {
        const file = await fs.open(tmpPath, 'wx', 0o600);
        written = await writeAndClose(file, source, { maxBytes: options.maxBytes, flushEveryBytes: durable ? FLUSH_EVERY_BYTES : undefined, digests: options.digests });
      }, durable);
    } finally {
      release();
    }
    return written as WrittenBlob;
  }

  async flush(key: string): Promise<void> {
    const file = this.fileOf(key);
    try {
      await syncFile(file);
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    await syncFile(path.dirname(file));
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const slice = runSliceOf(key);
    let handle: FileHandle;
    try {
      handle = await fs.open(this.fileOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    // Opened before any response header is sent, so a missing blob is known up front. The last
    // byte is named, so the stream ends as it delivers it rather than after one more empty read:
    // a response is complete, and its connection free, as soon as the client has every byte.
    const { size: fileSize } = await handle.stat();
    const { base, size } = slice === undefined ? { base: 0, size: fileSize } : sliceBounds(slice, fileSize);
    const start = base + (range?.start ?? 0);
    const end = base + Math.min(range?.end ?? size - 1, size - 1);
    if (end < start) {
      await handle.close();
      return Readable.from([]);
    }
    return paced(handle.createReadStream({ start, end, highWaterMark: READ_CHUNK_BYTES }));
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const from = this.pathOf(fromKey);
    await this.writeThrough(toKey, async (tmpPath) => {
      try {
        // A copy-on-write clone where the file system offers one, else a plain copy.
        await fs.copyFile(from, tmpPath, fsConstants.COPYFILE_FICLONE | fsConstants.COPYFILE_EXCL);
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(fromKey);
        throw error;
      }
    });
  }

  async delete(key: string): Promise<void> {
    try {
      await fs.unlink(this.fileOf(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  stage(options: { maxBytes: number }): Promise<StagedBlob> {
    return LocalStagedBlob.create({
      tmpDir: this.tmpDir,
      pathOf: (key) => this.pathOf(key),
      publish: (tmpPath, key) => this.publish(tmpPath, key),
    }, options.maxBytes);
  }

  beginRun(): Promise<BlobRun> {
    return LocalBlobRun.create(this.runsDir, (runFile, key) => this.keepRunAs(runFile, key));
  }

  /**
   * Removes temporary files nobody has written to for `olderThanMs`: what a crash or a killed
   * process left. The age test keeps a write in progress (on this node or on another node
   * sharing the directory) safe, since writing keeps touching its file. A run is kept while an
   * upload may still refer to it: `runsOlderThanMs` must exceed the longest an upload lasts.
   * (Runs are deleted with their uploads; this clears what a crash or a lost race left.)
   */
  async removeStaleTemporaryFiles(now: number, olderThanMs: number, runsOlderThanMs: number): Promise<number> {
    return await removeStaleFiles(this.tmpDir, now, olderThanMs) + await removeStaleFiles(this.runsDir, now, runsOlderThanMs);
  }

  /**
   * A finished run becomes the blob `key` without a copy: flushed, then hard-linked into place
   * (the run's file stays for its slices until its upload is gone), the directory flushed. Where
   * the file system has no hard links, it is copied (a clone where it can).
   */
  private async keepRunAs(runFile: string, key: string): Promise<void> {
    const finalPath = this.pathOf(key);
    await syncFile(runFile);
    await fs.mkdir(path.dirname(finalPath), { recursive: true });
    try {
      await fs.link(runFile, finalPath);
    } catch (error) {
      if (!NO_HARD_LINK.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      await this.writeThrough(key, (tmpPath) => fs.copyFile(runFile, tmpPath, fsConstants.COPYFILE_FICLONE | fsConstants.COPYFILE_EXCL));
      return;
    }
    await syncFile(path.dirname(finalPath));
  }

  /**
   * The all-or-nothing part of write and copy: `fill` creates the temporary file, which is then
   * flushed to disk and renamed to the blob's place (and the directory flushed, so the rename
   * survives a power cut). Any failure removes the temporary file.
   */
  private async writeThrough(key: string, fill: (tmpPath: string) => Promise<void>, durable = true): Promise<void> {
    this.pathOf(key); // the key is checked before anything is written
    await fs.mkdir(this.tmpDir, { recursive: true });
    const tmpPath = path.join(this.tmpDir, `${randomUUID()}.tmp`);
    try {
      await fill(tmpPath);
      await this.publish(tmpPath, key, durable);
    } catch (error) {
      await fs.rm(tmpPath, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A complete temporary file becomes the blob `key`: flushed, renamed into place, the directory
   * flushed. Not durable: renamed only (the rename is still atomic for every reader).
   */
  private async publish(tmpPath: string, key: string, durable = true): Promise<void> {
    const finalPath = this.pathOf(key);
    if (durable) await syncFile(tmpPath);
    await fs.mkdir(path.dirname(finalPath), { recursive: true });
    await fs.rename(tmpPath, finalPath);
    if (durable) await syncFile(path.dirname(finalPath));
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.objectsDir, key.slice(0, 2), key);
  }

  /** The file holding a key's bytes: its own blob's, or for a run's slice, the run's. */
  private fileOf(key: string): string {
    const slice = runSliceOf(key);
    if (slice === undefined) return this.pathOf(key);
    assertStorageKey(slice.runKey);
    return path.join(this.runsDir, `${slice.runKey}.run`);
  }
}

/** Errors of link(2) that mean "no hard link here", not "something is wrong". */
const NO_HARD_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/** Where a slice's bytes are in its run's file, cut short where the file is (a crash lost its tail). */
function sliceBounds(slice: RunSlice, fileSize: number): { base: number; size: number } {
  return { base: slice.offset, size: Math.max(0, Math.min(slice.size, fileSize - slice.offset)) };
}

async function removeStaleFiles(dir: string, now: number, olderThanMs: number): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat === undefined || now - stat.mtimeMs < olderThanMs) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

/** Each chunk read is a new buffer, garbage once sent: counted for the young generation's collection (garbage-pacer.ts). */
function paced(stream: Readable): Readable {
  const push = stream.push.bind(stream);
  stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk instanceof Buffer) passedThrough(chunk.length);
    return push(chunk, encoding);
  };
  return stream;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
