import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every digest Atrium keeps of a file's bytes, as node:crypto and node:zlib compute them: hex, CRC-32 as eight digits. */
export function digestsOf(bytes: Uint8Array | string) {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const hex = (algorithm: string) => createHash(algorithm).update(data).digest('hex');
  return { sha256: hex('sha256'), md5: hex('md5'), sha1: hex('sha1'), crc32: crc32(data).toString(16).padStart(8, '0') };
}
