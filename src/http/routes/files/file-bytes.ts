import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ByteRange } from '../../../files/index.js';

/** What a download's headers say about the file, and how it is served (an attachment unless said). */
export interface ServedFile {
  name: string;
  size: number | null;
  mtime: number;
  sha256: string | null;
  disposition?: 'inline' | 'attachment';
  contentType?: string;
}

/**
 * The response of a download: exact Content-Length (or Content-Range), streamed with back-pressure
 * so a download never sits in memory. The bytes are whatever a user uploaded, so they are served
 * as an opaque attachment, or, for a preview of a type files/ found safe to show, as that type
 * inline; either way never sniffed, and sandboxed (no script, no origin of its own) if a browser
 * opens it on the server's origin.
 */
export function sendStream(reply: FastifyReply, file: ServedFile, stream: Readable, range: ByteRange | undefined): FastifyReply {
  const size = file.size ?? 0;
  reply
    .header('Content-Type', file.contentType ?? 'application/octet-stream')
    .header('Content-Disposition', contentDisposition(file.name, file.disposition))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .header('Accept-Ranges', 'bytes')
    .header('Last-Modified', new Date(file.mtime).toUTCString());
  if (file.sha256 !== null) reply.header('ETag', `"${file.sha256}"`);
  if (range === undefined) {
    reply.code(200).header('Content-Length', String(size));
  } else {
    reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`).header('Content-Length', String(range.end - range.start + 1));
  }
  return reply.send(stream);
}

/** RFC 6266: an ASCII fallback name and the exact UTF-8 one. */
export function contentDisposition(name: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
