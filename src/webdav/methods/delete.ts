import { parentOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';

/**
 * DELETE (RFC 4918 9.6): a file, or a folder with everything in it, 204. The file session
 * deletes all or nothing (the caller needs delete on everything inside), so there is never a
 * partial failure to report in a 207; it also refuses the root, as it does for every door. Locks
 * on what was deleted go with it (the file session removes them with the entries).
 */
export async function deleteMethod(ctx: DavContext): Promise<void> {
  const entry = await ctx.session.stat(ctx.path);
  await assertWritable(ctx, { paths: [ctx.path], parents: [parentOf(ctx.path)], recursive: entry.type === 'directory' });
  // The locks on what was deleted go with it, in the deletion's own transaction (src/files).
  await ctx.session.delete(ctx.path, { recursive: true });
  ctx.reply.code(204).send();
}
