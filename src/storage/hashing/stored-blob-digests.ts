import type { BlobStorage } from '../blob-storage.js';
import type { ContentDigests } from './content-digests.js';
import { digestJob } from './digest-thread.js';
import { hashCopy } from './shared-blocks.js';

/**
 * Every digest of a blob already stored, read back from storage and hashed on the hashing thread
 * (one chunk hashed while the next is read): for a large file's MD5, SHA-1 and CRC-32, which its
 * upload left to be computed afterwards (files/file-digests.ts). BlobNotFoundError when the blob
 * is gone.
 */
export async function storedBlobDigests(storage: BlobStorage, key: string, signal?: AbortSignal): Promise<ContentDigests> {
  const bytes = await storage.read(key);
  const hash = digestJob('all');
  let hashing: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      await hashing;
      hashing = hashCopy(hash.update.bind(hash), chunk);
    }
    await hashing;
    return await hash.digest();
  } finally {
    hash.discard();
    bytes.destroy();
  }
}
