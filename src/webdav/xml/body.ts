import type { Readable } from 'node:stream';
import type { DavContext } from '../dav-request.js';
import { davErrors } from '../dav-error.js';

/** An XML request body may carry at most this much: property requests are small, anything bigger is refused unread. */
export const MAX_XML_BODY_BYTES = 1024 * 1024;

/**
 * The request body as text ('' when there is none), read whole up to MAX_XML_BODY_BYTES: a
 * declared length over it is refused before a byte is read, a body growing past it as soon as it
 * does (413), so a huge body never sits in memory.
 */
export async function readTextBody(ctx: DavContext): Promise<string> {
  const declared = ctx.request.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_XML_BODY_BYTES) throw davErrors.tooLarge(`An XML request body may be at most ${MAX_XML_BODY_BYTES} bytes.`);
  const stream = bodyStream(ctx);
  const chunks: Buffer[] = [];
  let size = 0;
  // Read by hand rather than with for-await: leaving that loop early destroys the stream, and with
  // it the socket the 413 must be answered on (the connection is closed after the answer instead).
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > MAX_XML_BODY_BYTES) {
        stream.off('data', onData);
        stream.pause();
        reject(davErrors.tooLarge(`An XML request body may be at most ${MAX_XML_BODY_BYTES} bytes.`));
        return;
      }
      chunks.push(buffer);
    };
    stream.on('data', onData);
    stream.once('end', () => resolve());
    stream.once('error', reject);
    // A client gone before the end: after 'end' this changes nothing (a settled promise stays settled).
    stream.once('close', () => reject(davErrors.badRequest('The request body ended before it was complete.')));
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether the request carries a body at all (MKCOL with one is 415). */
export function hasBody(ctx: DavContext): boolean {
  const { headers } = ctx.request;
  const length = headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return headers['transfer-encoding'] !== undefined;
}

/**
 * The request stream. Every content type reaches the methods unread (register-webdav.ts), so a
 * PUT streams to storage and an XML body is read here with its limit.
 */
export function bodyStream(ctx: DavContext): Readable {
  return (ctx.request.body as Readable | undefined) ?? ctx.request.raw;
}
