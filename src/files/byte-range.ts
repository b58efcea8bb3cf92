import type { ByteRange } from '../storage/blob-storage.js';

/**
 * Which bytes of a file a client asks for, before the file's size is known: from `start` to `end`
 * (both included; to the last byte without `end`), or the last `suffixLength` bytes. A front door
 * turns its own syntax into this (an HTTP Range header, an SFTP read's offset and length).
 */
export type RangeRequest = { start: number; end?: number } | { suffixLength: number };

/**
 * The part of a file of `size` bytes a request names, clamped to the file. Nothing satisfiable (an
 * empty file, a start past the end) is undefined: the whole file is served, as RFC 9110 allows.
 */
export function resolveRange(request: RangeRequest | undefined, size: number): ByteRange | undefined {
  if (request === undefined || size === 0) return undefined;
  if ('suffixLength' in request) {
    const suffix = Math.min(request.suffixLength, size);
    return suffix === 0 ? undefined : { start: size - suffix, end: size - 1 };
  }
  const { start } = request;
  const end = request.end === undefined ? size - 1 : Math.min(request.end, size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return undefined;
  return { start, end };
}
