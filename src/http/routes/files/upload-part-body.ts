import type { FastifyRequest } from 'fastify';
import { MAX_PARTS, type UploadOffer } from '../../../files/index.js';
import { isoTime } from '../../../lib/time.js';
import { uploadUri } from './transfer-urls.js';

/**
 * The part size offered to clients. The JavaScript SDK holds one part in memory while sending it,
 * so this bounds a client's memory; a file of one part needs no joining when the upload ends.
 */
export const PART_SIZE = 32 * 1024 * 1024;

/**
 * A Files.com FileUploadPart: where and how to send part `partNumber`. Parts go one at a time, in
 * order (`parallel_parts: false`), which keeps the SDK from buffering every part at once; Atrium
 * itself accepts parts in any order and retried ones.
 */
export function uploadPartBody(request: FastifyRequest, offer: UploadOffer) {
  return {
    ref: offer.ref,
    path: offer.path,
    action: 'put/write',
    upload_uri: uploadUri(request, offer.token),
    http_method: 'PUT',
    part_number: offer.partNumber,
    partsize: PART_SIZE,
    next_partsize: PART_SIZE,
    parallel_parts: false,
    retry_parts: true,
    available_parts: MAX_PARTS,
    expires: isoTime(offer.expiresAt),
    ask_about_overwrites: offer.fileExists,
    headers: {},
    parameters: {},
    send: {},
  };
}
