import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every digest Atrium keeps of a file's bytes, as node:crypto and node:zlib compute them: hex, CRC-32 as eight digits. */
export function digestsOf(bytes: Uint8Array | string) {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const hex = (algorithm: string) => createHash(algorithm).update(data).digest('hex');
  return { sha256: hex('sha256'), md5: hex('md5'), sha1: hex('sha1'), crc32: crc32(data).toString(16).padStart(8, '0') };
}

/**
 * The digests storage computes as bytes arrive: every one for a small blob (up to 128 KiB), the
 * SHA-256 alone for a larger one, whose others a background job computes afterwards
 * (src/files/file-digests.ts).
 */
export function digestsOnArrival(bytes: Uint8Array | string) {
  const all = digestsOf(bytes);
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  return size <= 128 * 1024 ? all : { sha256: all.sha256, md5: null, sha1: null, crc32: null };
}
