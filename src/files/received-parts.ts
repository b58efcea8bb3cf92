import { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import type { UploadPart } from '../repositories/uploads.js';
import { BlobNotFoundError, type BlobStorage } from '../storage/blob-storage.js';
import type { ContentDigests, DigestChoice } from '../storage/hashing/content-digests.js';
import { digestJob } from '../storage/hashing/digest-thread.js';
import { hashCopy } from '../storage/hashing/shared-blocks.js';

/**
 * An upload's parts are stored without being flushed to disk (upload-parts.ts): each is whole
 * for every reader and survives a restart of Atrium, but an operating system crash or a power
 * cut may lose or cut short one that was already acknowledged. Flushing every part and then the
 * joined file wrote every byte to the disk twice, and waited for both. Instead, when the upload
 * ends, every part is read back against the size and SHA-256 recorded when it arrived, and only
 * the file made of them is flushed (before it becomes visible, as every file is). A part that no
 * longer matches is `upload-part-lost`: the client sends it again and ends again; it never
 * becomes part of a file.
 */

/** The parts' bytes one after the other, each checked on the way; a lost part fails the stream. */
export function checkedParts(storage: BlobStorage, parts: readonly UploadPart[]): Readable {
  return Readable.from(
    (async function* () {
      for (const part of parts) yield* checkedPart(storage, part, 'sha256');
    })(),
  );
}

/**
 * A single part that becomes the file as it is: checked whole, then flushed to disk. A small
 * file's other digests are computed in the same read (a part was stored with its SHA-256 only); a
 * larger one's after the upload, as for every large file (content-digests.ts).
 */
export async function keepPartAsFile(storage: BlobStorage, part: UploadPart): Promise<ContentDigests> {
  const reading = checkedPart(storage, part, 'all-if-small');
  let next = await reading.next();
  while (next.done !== true) next = await reading.next();
  const digests = next.value;
  await storage.flush(part.storageKey).catch((error: unknown) => {
    throw error instanceof BlobNotFoundError ? errors.uploadPartLost(part.partNumber) : error;
  });
  return digests;
}

/**
 * The part's bytes, hashed on the hashing thread (digest-thread.ts) while they are passed on:
 * each chunk (a MiB, as blobs are read) is copied into a shared block, and the next is read while
 * the last is hashed. Returns the part's digests (`choice`), once its SHA-256 is checked.
 */
async function* checkedPart(storage: BlobStorage, part: UploadPart, choice: DigestChoice): AsyncGenerator<Buffer, ContentDigests> {
  let bytes: Readable;
  try {
    bytes = await storage.read(part.storageKey);
  } catch (error) {
    throw error instanceof BlobNotFoundError ? errors.uploadPartLost(part.partNumber) : error;
  }
  const hash = digestJob(choice);
  let hashing: Promise<void> = Promise.resolve();
  let size = 0;
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > part.size) break;
      await hashing;
      hashing = hashCopy(hash.update.bind(hash), chunk);
      yield chunk;
    }
    await hashing;
    const digests = size === part.size ? await hash.digest() : undefined;
    if (digests?.sha256 !== part.sha256) throw errors.uploadPartLost(part.partNumber);
    return digests;
  } finally {
    hash.discard();
    bytes.destroy();
  }
}
