import type { Readable } from 'node:stream';
import type { StagedBlob } from './staged-blob.js';

/** What a completed write stored. */
export interface WrittenBlob {
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** Bytes `start` to `end`, both included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file contents live. Keys are opaque random ids chosen by the caller (storage-keys.ts),
 * never derived from user paths, so no path spelling can name anything but a blob. A blob is
 * immutable once written: replacing a file writes a new blob under a new key.
 *
 * The local-disk backend is the only one today; an object store can implement the same
 * operations later (a write there is a multipart upload that completes only at the end).
 */
export interface BlobStorage {
  /**
   * Streams `source` into a new blob. Never holds the whole of it in memory. The blob exists
   * under `key` only once every byte is stored (on disk, unless `durable` is false): a failure or
   * an interrupted source leaves nothing behind. More than `maxBytes` bytes fails with
   * BlobTooLargeError.
   *
   * `durable: false` is for scratch blobs that are checked before they are used (an upload's
   * parts, checked against their SHA-256 when the upload ends): the blob is whole for every
   * reader and survives the process, but the operating system's crash may lose or truncate it.
   * `flush` makes such a blob durable later.
   *
   * `appendTo`: the same bytes are also appended to a run (beginRun), which grows only if the
   * write succeeds; a failed write leaves the run unusable (its finish fails).
   */
  write(key: string, source: Readable, options: { maxBytes: number; durable?: boolean; appendTo?: BlobRun }): Promise<WrittenBlob>;
  /** Makes a blob written with `durable: false` as durable as any other; BlobNotFoundError when it is missing. */
  flush(key: string): Promise<void>;
  /** A stream of the blob's bytes (or of a range of them); BlobNotFoundError when it is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** A new blob with the bytes of another, under the same all-or-nothing rule as write. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Removes a blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /** A blob to be written at offsets (SFTP), which becomes a blob only when finished (staged-blob.ts). */
  stage(options: { maxBytes: number }): Promise<StagedBlob>;
  /** A new, empty run: writes that follow one another append to it (blob-run.ts). */
  beginRun(): Promise<BlobRun>;
}

/**
 * A blob made of the bytes of several writes, one after the other, as they arrive (an upload's
 * parts, sent in order): its SHA-256 is computed on the way, and it is pushed to the disk as it
 * grows, so that making it a blob needs neither reading it again nor copying it.
 */
export interface BlobRun {
  /** Bytes appended so far. */
  readonly size: number;
  /**
   * The bytes appended so far become the blob `key`, flushed to disk and renamed into place, with
   * their SHA-256; the run is over. Fails (storing nothing) if a write to it failed.
   */
  finish(key: string): Promise<WrittenBlob>;
  /** Removes the run's bytes; harmless once finished or discarded. */
  discard(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the content is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`blob ${key} is missing`);
    this.name = 'BlobNotFoundError';
  }
}
