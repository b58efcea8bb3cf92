import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import type { UploadPart } from '../repositories/uploads.js';
import { BlobNotFoundError, type BlobStorage } from '../storage/blob-storage.js';

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
      for (const part of parts) yield* checkedPart(storage, part);
    })(),
  );
}

/** A single part that becomes the file as it is: checked whole, then flushed to disk. */
export async function keepPartAsFile(storage: BlobStorage, part: UploadPart): Promise<void> {
  for await (const _chunk of checkedPart(storage, part)) {
    // Read through for the check only.
  }
  await storage.flush(part.storageKey).catch((error: unknown) => {
    throw error instanceof BlobNotFoundError ? errors.uploadPartLost(part.partNumber) : error;
  });
}

async function* checkedPart(storage: BlobStorage, part: UploadPart): AsyncGenerator<Buffer> {
  let bytes: Readable;
  try {
    bytes = await storage.read(part.storageKey);
  } catch (error) {
    throw error instanceof BlobNotFoundError ? errors.uploadPartLost(part.partNumber) : error;
  }
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of bytes as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > part.size) break;
    hash.update(chunk);
    yield chunk;
  }
  if (size !== part.size || hash.digest('hex') !== part.sha256) {
    bytes.destroy();
    throw errors.uploadPartLost(part.partNumber);
  }
}
