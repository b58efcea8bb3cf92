import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * The checksums a file's entry answers (`sha256`, `md5`, `sha1`, `crc32`), all lower-case hex,
 * CRC-32 as its eight hex digits. The SHA-256 is computed as the bytes arrive, and so are the
 * others for a small file (hashed on the event loop, where they cost little). A large file's
 * others are null until the `file-digests` job has read it back (files/file-digests.ts): on the
 * hashing thread they cost three times the SHA-256, and every upload waited for them. A part of
 * an upload needs only its SHA-256 (to be checked when the upload ends).
 */
export interface ContentDigests {
  sha256: string;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
}

/**
 * Which digests a hash computes: every one a file answers; only the SHA-256 (an upload's part);
 * or every one if the bytes prove to be no more than INLINE_HASH_BYTES, the SHA-256 alone
 * otherwise (a file's bytes as they arrive, when their size is not known in advance).
 */
export type DigestChoice = 'all' | 'sha256' | 'all-if-small';

/** CRC-32 as the API spells it: eight lower-case hex digits. */
export function crc32Hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/**
 * A blob this small is hashed on the event loop (under 0.1 ms): a round trip to the hashing
 * thread would cost more than it saves, and small files (a WebDAV tree, a config) are most files.
 */
export const INLINE_HASH_BYTES = 128 * 1024;

/**
 * The digests computed on the event loop, for what is too small to be worth a round trip to the
 * hashing thread (digest-thread.ts, which computes the very same in its own code).
 */
export class InlineDigests {
  private readonly sha256 = createHash('sha256');
  private others: { md5: Hash; sha1: Hash } | undefined;
  private crc = 0;
  private readonly othersUpTo: number;
  private size = 0;

  constructor(choice: DigestChoice = 'all') {
    this.others = choice === 'sha256' ? undefined : { md5: createHash('md5'), sha1: createHash('sha1') };
    this.othersUpTo = choice === 'all-if-small' ? INLINE_HASH_BYTES : Infinity;
  }

  update(bytes: Uint8Array): this {
    this.sha256.update(bytes);
    this.size += bytes.length;
    if (this.size > this.othersUpTo) this.others = undefined;
    if (this.others !== undefined) {
      this.others.md5.update(bytes);
      this.others.sha1.update(bytes);
      this.crc = crc32(bytes, this.crc);
    }
    return this;
  }

  digest(): ContentDigests {
    const sha256 = this.sha256.digest('hex');
    if (this.others === undefined) return { sha256, md5: null, sha1: null, crc32: null };
    return { sha256, md5: this.others.md5.digest('hex'), sha1: this.others.sha1.digest('hex'), crc32: crc32Hex(this.crc) };
  }
}
