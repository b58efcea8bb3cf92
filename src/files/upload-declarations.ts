import { errors } from '../errors/catalogue.js';
import type { UploadPart } from '../repositories/uploads.js';

/** A part's entity tag as a client read it from the answer to the part (`ETag`), sent back at the end. */
export interface PartEntityTag {
  part: number;
  etag: string;
}

/** What a client declares, at the end of an upload, about the parts it sent (the Go SDK sends both). */
export interface UploadDeclarations {
  /** The file's size in bytes. */
  size?: number | undefined;
  /** Every part it sent, with the entity tag each was answered with. */
  etags?: readonly PartEntityTag[] | undefined;
}

/**
 * The entity tag a received part is answered with: its SHA-256 in quotes, as an S3 part's is
 * its MD5 in quotes. Compared without the quotes and case-insensitively, since clients keep
 * one or the other.
 */
export function partEntityTag(sha256: string): string {
  return `"${sha256}"`;
}

const bare = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1').toLowerCase();

/**
 * Checks an upload's parts, as received, against what its client declares at the end, before
 * anything is stored: a `size` other than the parts' total is `request-params-invalid` naming
 * `size`; `etags` that do not name exactly the parts received (each once) with the tags they were
 * answered with are `bad-request/invalid-etags`. A part the client believes it sent and the
 * server never kept, or kept other bytes of, is then found before the file is made of them; the
 * upload stays open, so the client sends the part again and ends again.
 */
export function assertPartsAsDeclared(parts: readonly UploadPart[], declared: UploadDeclarations): void {
  const total = parts.reduce((sum, part) => sum + part.size, 0);
  if (declared.size !== undefined && declared.size !== total) {
    throw errors.paramsInvalid({ size: [`is ${declared.size} bytes, but the parts received hold ${total}`] });
  }
  if (declared.etags === undefined) return;
  const byPart = new Map(parts.map((part) => [part.partNumber, part.sha256]));
  const named = new Set<number>();
  for (const { part, etag } of declared.etags) {
    const sha256 = byPart.get(part);
    if (sha256 === undefined) throw errors.invalidEtags(`Part ${part} was not received.`);
    if (named.has(part)) throw errors.invalidEtags(`Part ${part} is named twice.`);
    if (bare(etag) !== sha256) throw errors.invalidEtags(`Part ${part} was received with other bytes than its ETag names; send it again.`);
    named.add(part);
  }
  const missing = parts.find((part) => !named.has(part.partNumber));
  if (missing !== undefined) throw errors.invalidEtags(`Part ${missing.partNumber} was received but is not named.`);
}
