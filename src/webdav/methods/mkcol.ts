import { davErrors } from '../dav-error.js';
import { parentOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';
import { hasBody } from '../xml/body.js';
import { isErrorType } from './lookup.js';

/**
 * MKCOL (RFC 4918 9.3): a new folder, 201. A body is 415 (no extended MKCOL); something already
 * at the path is 405; a missing parent is 409 (folders are never made on the way here).
 */
export async function mkcol(ctx: DavContext): Promise<void> {
  if (hasBody(ctx)) throw davErrors.unsupportedMediaType('MKCOL with a body is not supported.');
  if (ctx.path === '') throw davErrors.methodNotAllowed('The root folder already exists.');
  await assertWritable(ctx, { paths: [ctx.path, parentOf(ctx.path)], recursive: false });
  try {
    await ctx.session.createFolder(ctx.path, { mkdirParents: false });
  } catch (error) {
    if (isErrorType(error, 'processing-failure/destination-exists')) throw davErrors.methodNotAllowed('Something already exists at this path.');
    throw error;
  }
  ctx.reply.code(201).header('Content-Length', '0').send();
}
