import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Entry } from '../../../repositories/entries.js';
import { parseRange } from '../../../files/index.js';
import type { FileCore } from '../../../files/index.js';
import type { ByteRange } from '../../../storage/blob-storage.js';

/** Streams a file's bytes (or one range of them) as the response. */
export async function sendFileBytes(reply: FastifyReply, ctx: FileCore, entry: Entry, rangeHeader: string | undefined): Promise<FastifyReply> {
  const range = parseRange(rangeHeader, entry.size ?? 0);
  return sendStream(reply, entry, await ctx.storage.read(entry.storageKey as string, range), range);
}

/**
 * The response of a download: exact Content-Length (or Content-Range), streamed with back-pressure
 * so a download never sits in memory. The bytes are whatever a user uploaded, so they are served
 * as an opaque attachment that browsers must not sniff or render in the server's origin.
 */
export function sendStream(reply: FastifyReply, entry: Entry, stream: Readable, range: ByteRange | undefined): FastifyReply {
  const size = entry.size ?? 0;
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  reply
    .header('Content-Type', 'application/octet-stream')
    .header('Content-Disposition', contentDisposition(name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Accept-Ranges', 'bytes')
    .header('Last-Modified', new Date(entry.mtime).toUTCString());
  if (entry.sha256 !== null) reply.header('ETag', `"${entry.sha256}"`);
  if (range === undefined) {
    reply.code(200).header('Content-Length', String(size));
  } else {
    reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`).header('Content-Length', String(range.end - range.start + 1));
  }
  return reply.send(stream);
}

/** RFC 6266: an ASCII fallback name and the exact UTF-8 one. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
