import { davErrors } from '../dav-error.js';
import { parentOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';
import { httpDateOf, unixSecondsOf } from '../properties/client-time.js';
import { entityTagOf } from '../properties/entity-tag.js';
import { bodyStream } from '../xml/body.js';
import { headerOf, isErrorType, statOrUndefined } from './lookup.js';

/**
 * PUT: a whole file, streamed to storage as it arrives (never held in memory), 201 when new and
 * 204 when it replaced one. The file session makes it visible only once every byte is stored, so
 * an interrupted PUT leaves nothing (and a replaced file unchanged). A missing parent folder is
 * 409 (nothing is made on the way); a folder at the path is 405. Content-Range (a partial PUT) is
 * refused with 400, as RFC 9110 14.5 asks of a server that does not apply it. A client's
 * modification time in `X-OC-Mtime` (rclone's owncloud and nextcloud vendors) or `Last-Modified`
 * (lftp) is kept as the new contents' (client-time.ts); one that cannot be read is 400, before
 * a byte is stored. `X-OC-Mtime` is answered `X-OC-MTime: accepted`, as ownCloud's clients look for.
 */
export async function put(ctx: DavContext): Promise<void> {
  if (ctx.path === '') throw davErrors.methodNotAllowed('The root is a folder.');
  if (headerOf(ctx, 'content-range') !== undefined) throw davErrors.badRequest('A partial PUT (Content-Range) is not supported; send the whole file.');
  const ocMtime = headerOf(ctx, 'x-oc-mtime');
  const providedMtime = clientTimeOf(ocMtime, headerOf(ctx, 'last-modified'));
  const existing = await statOrUndefined(ctx, ctx.path);
  if (existing?.type === 'directory') throw davErrors.methodNotAllowed('A folder is at this path.');
  // A new file is a new member of its folder: a depth-0 lock there protects that.
  await assertWritable(ctx, { paths: existing === undefined ? [ctx.path, parentOf(ctx.path)] : [ctx.path], recursive: false });
  const declared = headerOf(ctx, 'content-length');
  let written;
  try {
    written = await ctx.session.write(ctx.path, bodyStream(ctx), {
      mkdirParents: false,
      declaredLength: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined,
      ...(providedMtime === undefined ? {} : { providedMtime }),
    });
  } catch (error) {
    if (isErrorType(error, 'processing-failure/destination-exists')) throw davErrors.methodNotAllowed('A folder is at this path.');
    throw error;
  }
  if (ocMtime !== undefined) ctx.reply.header('X-OC-MTime', 'accepted');
  ctx.reply.code(written.replaced ? 204 : 201).header('ETag', entityTagOf(written.entry)).header('Content-Length', '0').send();
}

/** The client's time of a PUT, in ms: `X-OC-Mtime` first, else `Last-Modified`; none when neither is sent. */
function clientTimeOf(ocMtime: string | undefined, lastModified: string | undefined): number | undefined {
  if (ocMtime !== undefined) {
    const time = unixSecondsOf(ocMtime);
    if (time === undefined) throw davErrors.badRequest('X-OC-Mtime must be the modification time in seconds since 1970.');
    return time;
  }
  if (lastModified === undefined) return undefined;
  const time = httpDateOf(lastModified);
  if (time === undefined) throw davErrors.badRequest('Last-Modified must be an HTTP date, such as Thu, 02 Jan 2020 03:04:05 GMT.');
  return time;
}
