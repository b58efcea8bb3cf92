import type { Readable } from 'node:stream';
import type { ContentDigests, DigestChoice } from './hashing/content-digests.js';
import type { StagedBlob } from './staged-blob.js';

/** What a completed write stored: its size and the digests of its bytes. */
export interface WrittenBlob extends ContentDigests {
  size: number;
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
   * `digests: 'sha256'` computes only the SHA-256 (a part, checked by it); every digest otherwise.
   */
  write(key: string, source: Readable, options: { maxBytes: number; durable?: boolean; digests?: DigestChoice }): Promise<WrittenBlob>;
  /**
   * Makes a blob written with `durable: false` (or a run's slice) as durable as any other;
   * BlobNotFoundError when it is missing.
   */
  flush(key: string): Promise<void>;
  /**
   * A stream of the blob's bytes (or of a range of them), or of a run's slice (storage-keys.ts);
   * BlobNotFoundError when it is missing. A slice whose run lost bytes (an operating system crash)
   * gives fewer bytes than it names: its reader checks them.
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** A new blob with the bytes of another, under the same all-or-nothing rule as write. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /**
   * Removes a blob; removing a missing blob is not an error. For a run's slice, the whole run goes
   * (its other slices with it): for when its upload is gone, or no part refers to it any more.
   */
  delete(key: string): Promise<void>;
  /** A blob to be written at offsets (SFTP), which becomes a blob only when finished (staged-blob.ts). */
  stage(options: { maxBytes: number }): Promise<StagedBlob>;
  /** A new, empty run: writes that follow one another append to it (blob-run.ts). */
  beginRun(): Promise<BlobRun>;
}

/**
 * Writes appended one after the other as they arrive (an upload's parts, sent in order), each
 * stored once: every write is a slice of the run with a key of its own (`storageKey`), readable
 * like a blob without being flushed (as `durable: false`), and the SHA-256 of the whole run is
 * computed on the way. When the upload ends the run becomes the file's blob as it is, neither read
 * again nor copied; its slices stay readable until the run is deleted.
 */
export interface BlobRun {
  /** Bytes appended so far. */
  readonly size: number;
  /**
   * Appends `source` (at most `maxBytes`, else BlobTooLargeError) and answers the slice's key, size
   * and SHA-256 (its other digests are null: only the whole run's are computed). One write at a time. RunClosedError, before reading anything of `source`, when the
   * run takes no more writes; after a failed write it takes none.
   */
  append(source: Readable, options: { maxBytes: number }): Promise<WrittenBlob & { storageKey: string }>;
  /**
   * The bytes appended so far also become the blob `key`, flushed to disk, with all their digests; the
   * run takes no more writes, and its slices stay readable. Fails (storing nothing) if a write to
   * it failed.
   */
  finish(key: string): Promise<WrittenBlob>;
  /** Takes no more writes; what it holds stays readable by its slices' keys (deleted with them). */
  close(): Promise<void>;
  /** Takes no more writes and removes the run's bytes: for a run no recorded slice refers to. */
  discard(): Promise<void>;
}

/** The run takes no more writes (closed, finished, broken by a failed write, or removed). */
export class RunClosedError extends Error {
  constructor() {
    super('storage: the run takes no more writes');
    this.name = 'RunClosedError';
  }
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
