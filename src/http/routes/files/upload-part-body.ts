import type { FastifyRequest } from 'fastify';
import { isoTime } from '../../../lib/time.js';
import { requestPathOf, type FileActor } from '../../../files/index.js';
import type { FileCore } from '../../../files/index.js';
import { MAX_PARTS, type PartOffer } from '../../../files/index.js';
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
export async function uploadPartBody(request: FastifyRequest, ctx: FileCore, actor: FileActor, offer: PartOffer) {
  const { upload, partNumber } = offer;
  const link = await ctx.links.sign({ kind: 'upload', uploadId: upload.id, part: partNumber }, upload.ref);
  return {
    ref: upload.ref,
    path: requestPathOf(actor, upload.path),
    action: 'put/write',
    upload_uri: uploadUri(request, link.token),
    http_method: 'PUT',
    part_number: partNumber,
    partsize: PART_SIZE,
    next_partsize: PART_SIZE,
    parallel_parts: false,
    retry_parts: true,
    available_parts: MAX_PARTS,
    expires: isoTime(Math.min(link.expiresAt, upload.expiresAt)),
    ask_about_overwrites: offer.fileExists,
    headers: {},
    parameters: {},
    send: {},
  };
}
