import { randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobNotFoundError, type BlobRun, type BlobStorage, type ByteRange, type WrittenBlob } from './blob-storage.js';
import { LocalBlobRun } from './blob-run.js';
import { BlobFileWriter } from './blob-file-writer.js';
import { passedThrough } from './garbage-pacer.js';
import { LocalStagedBlob, type StagedBlob } from './staged-blob.js';
import { syncFile } from './sync-file.js';
import { assertStorageKey } from './storage-keys.js';

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
  /** Uploads' runs (blob-run.ts): in progress like temporary files, but for as long as an upload lasts. */
  private readonly runsDir: string;

  constructor(readonly root: string) {
    this.objectsDir = path.join(root, 'objects');
    this.tmpDir = path.join(root, 'tmp');
    this.runsDir = path.join(root, 'runs');
  }

  async write(key: string, source: Readable, options: { maxBytes: number; durable?: boolean; appendTo?: BlobRun }): Promise<WrittenBlob> {
    const durable = options.durable ?? true;
    const run = options.appendTo === undefined ? undefined : ownRun(options.appendTo);
    let written: WrittenBlob | undefined;
    const appendTo = run?.beginWrite();
    try {
      await this.writeThrough(key, async (tmpPath) => {
        const file = await fs.open(tmpPath, 'wx', 0o600);
        const writer = new BlobFileWriter(file, { maxBytes: options.maxBytes, flushEveryBytes: durable ? FLUSH_EVERY_BYTES : undefined, appendTo });
        try {
          await pipeline(source, writer);
          written = writer.result;
        } finally {
          await writer.settled();
          await file.close();
        }
      }, durable);
    } catch (error) {
      run?.failed();
      throw error;
    }
    run?.appended((written as WrittenBlob).size);
    return written as WrittenBlob;
  }

  async flush(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      await syncFile(file);
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    await syncFile(path.dirname(file));
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    let handle: FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    // Opened before any response header is sent, so a missing blob is known up front. The last
    // byte is named, so the stream ends as it delivers it rather than after one more empty read:
    // a response is complete, and its connection free, as soon as the client has every byte.
    const { size } = await handle.stat();
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? size - 1, size - 1);
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
      await fs.unlink(this.pathOf(key));
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
    return LocalBlobRun.create(this.runsDir, (tmpPath, key) => this.publish(tmpPath, key));
  }

  /**
   * Removes temporary files nobody has written to for `olderThanMs`: what a crash or a killed
   * process left. The age test keeps a write in progress (on this node or on another node
   * sharing the directory) safe, since writing keeps touching its file.
   */
  async removeStaleTemporaryFiles(now: number, olderThanMs: number): Promise<number> {
    let removed = 0;
    for (const dir of [this.tmpDir, this.runsDir]) removed += await removeStaleFiles(dir, now, olderThanMs);
    return removed;
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

function ownRun(run: BlobRun): LocalBlobRun {
  if (!(run instanceof LocalBlobRun)) throw new TypeError('storage: a run of another storage');
  return run;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
