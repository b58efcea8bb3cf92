import { davErrors } from '../dav-error.js';
import { parentOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';
import { entityTagOf } from '../properties/entity-tag.js';
import { bodyStream } from '../xml/body.js';
import { headerOf, isErrorType, statOrUndefined } from './lookup.js';

/**
 * PUT: a whole file, streamed to storage as it arrives (never held in memory), 201 when new and
 * 204 when it replaced one. The file session makes it visible only once every byte is stored, so
 * an interrupted PUT leaves nothing (and a replaced file unchanged). A missing parent folder is
 * 409 (nothing is made on the way); a folder at the path is 405. Content-Range (a partial PUT) is
 * refused with 400, as RFC 9110 14.5 asks of a server that does not apply it.
 */
export async function put(ctx: DavContext): Promise<void> {
  if (ctx.path === '') throw davErrors.methodNotAllowed('The root is a folder.');
  if (headerOf(ctx, 'content-range') !== undefined) throw davErrors.badRequest('A partial PUT (Content-Range) is not supported; send the whole file.');
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
    });
  } catch (error) {
    if (isErrorType(error, 'processing-failure/destination-exists')) throw davErrors.methodNotAllowed('A folder is at this path.');
    throw error;
  }
  ctx.reply.code(written.replaced ? 204 : 201).header('ETag', entityTagOf(written.entry)).header('Content-Length', '0').send();
}
