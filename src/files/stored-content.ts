import { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import type { FileContent } from '../repositories/entries.js';
import { BlobTooLargeError, RunClosedError, type BlobRun, type BlobStorage } from '../storage/blob-storage.js';
import type { DigestChoice } from '../storage/hashing/content-digests.js';
import { newStorageKey } from '../storage/storage-keys.js';

/**
 * Streams a request body into a new blob. Over `maxBytes` is `bad-request/request-body-too-large`
 * (naming the configured limit, `limitForMessage`); a body that stops before its end (the client
 * went away, or sent less than its Content-Length) is `bad-request/upload-incomplete`. Either way
 * storage has kept nothing. `durable: false` stores it without flushing it to disk; `digests:
 * 'sha256'` computes only its SHA-256 (an upload's part, whose other digests nobody asks for).
 */
export async function storeBody(
  storage: BlobStorage,
  body: Readable | undefined,
  limits: { maxBytes: number; limitForMessage: number },
  options: { durable: boolean; digests?: DigestChoice } = { durable: true },
): Promise<FileContent> {
  const storageKey = newStorageKey();
  return received(body, limits, async (source) => ({ storageKey, ...await storage.write(storageKey, source, { maxBytes: limits.maxBytes, durable: options.durable, digests: options.digests }) }),
    (content) => storage.delete(content.storageKey));
}

/**
 * The same for a body appended to an upload's run (BlobRun.append), as a slice of it: the same
 * errors, and the run takes no more writes after one (the caller drops it). RunClosedError is
 * passed on as it is, with nothing of the body read.
 */
export function appendBody(run: BlobRun, body: Readable | undefined, limits: { maxBytes: number; limitForMessage: number }): Promise<FileContent> {
  return received(body, limits, (source) => run.append(source, { maxBytes: limits.maxBytes }));
}

/**
 * Stores a request body with `store`, answering the contract's errors for a body over the limit
 * or one that did not arrive whole; what `store` kept of an incomplete body is given to `forget`.
 */
async function received(
  body: Readable | undefined,
  limits: { limitForMessage: number },
  store: (source: Readable) => Promise<FileContent>,
  forget?: (content: FileContent) => Promise<void>,
): Promise<FileContent> {
  try {
    const content = await store(body ?? Readable.from([]));
    // An HTTP/2 stream the client reset ends like a finished one; only its flag tells them apart.
    if (endedEarly(body)) {
      await forget?.(content).catch(() => undefined);
      throw errors.uploadIncomplete();
    }
    return content;
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw errors.uploadTooLarge(limits.limitForMessage);
    if (!(error instanceof RunClosedError) && endedEarly(body)) throw errors.uploadIncomplete();
    throw error;
  }
}

/**
 * A request body that did not arrive whole: an HTTP/1.1 message not marked complete, or an HTTP/2
 * request whose stream was aborted (its `complete` is true then too).
 */
function endedEarly(body: Readable | undefined): boolean {
  if (body === undefined) return false;
  const request = body as Readable & { complete?: boolean; aborted?: boolean };
  return request.complete === false || request.aborted === true;
}

/** Refuses a body whose declared length is already over the limit, before reading any of it. */
export function assertDeclaredLength(contentLength: number | undefined, maxBytes: number, limitForMessage: number): void {
  if (contentLength !== undefined && contentLength > maxBytes) throw errors.uploadTooLarge(limitForMessage);
}
