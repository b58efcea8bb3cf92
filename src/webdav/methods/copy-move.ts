import { davErrors } from '../dav-error.js';
import { davRelative, decodePath, parentOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';
import { headerOf, statOrUndefined } from './lookup.js';

/**
 * COPY and MOVE (RFC 4918 9.8, 9.9). The Destination must be a /dav/ URL of this server (another
 * host is 502, another path on this server 403); it is read in the caller's own Workspace, so it
 * cannot leave it. Overwrite: F with something at the destination is 412; T (the default)
 * replaces it, deleted in the same transaction as the transfer. A missing destination folder is
 * 409. COPY takes Depth 0 (a folder without its contents) or infinity; MOVE only infinity. The
 * file session copies and moves all or nothing, so there is never a partial 207; it refuses to
 * copy a source with more dead properties than a resource may keep (507).
 */
export async function copyOrMove(ctx: DavContext): Promise<void> {
  const move = ctx.request.method === 'MOVE';
  const destination = destinationOf(ctx);
  const depth = (headerOf(ctx, 'depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== 'infinity' && (move || depth !== '0')) throw davErrors.badRequest(move ? 'MOVE takes Depth: infinity only.' : 'COPY takes Depth 0 or infinity.');
  const overwriteHeader = (headerOf(ctx, 'overwrite') ?? 'T').trim().toUpperCase();
  if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw davErrors.badRequest('Overwrite must be T or F.');

  // A missing source is 404 before anything is said about the destination.
  await ctx.session.stat(ctx.path);
  if (ctx.path === '' || destination === '') throw davErrors.forbidden('The root folder cannot be copied, moved or replaced.');
  if (destination === ctx.path) throw davErrors.forbidden('The destination is the source itself.');
  const parent = await statOrUndefined(ctx, parentOf(destination));
  if (parent === undefined || parent.type !== 'directory') throw davErrors.conflict('The destination folder does not exist.');
  const existing = await statOrUndefined(ctx, destination);
  if (existing !== undefined && overwriteHeader === 'F') throw davErrors.preconditionFailed('Something exists at the destination and Overwrite is F.');

  const paths = [destination, ...(move ? [ctx.path] : [])];
  await assertWritable(ctx, { paths, parents: [parentOf(destination), ...(move ? [parentOf(ctx.path)] : [])], recursive: true });
  const overwrite = existing !== undefined;
  // The file session removes the locks that go (the source's on a move, those below a replaced
  // destination) in the same transaction; a lock on the destination itself stays and covers what
  // replaced it (RFC 4918 7.7). A lock never travels with a copy.
  if (move) await ctx.session.move(ctx.path, destination, { overwrite });
  else await ctx.session.copy(ctx.path, destination, { overwrite, withoutMembers: depth === '0' });
  ctx.reply.code(overwrite ? 204 : 201).header('Content-Length', '0').send();
}

/**
 * The Destination header as a path in the caller's Workspace: an absolute URL whose host is this
 * request's, or an absolute path, under /dav/.
 */
function destinationOf(ctx: DavContext): string {
  const header = headerOf(ctx, 'destination');
  if (header === undefined || header.trim() === '') throw davErrors.badRequest('COPY and MOVE need a Destination header.');
  let url: URL;
  try {
    url = new URL(header.trim(), `http://${ctx.request.host}`);
  } catch {
    throw davErrors.badRequest('The Destination header is not a URL.');
  }
  // request.host is the Host the client used (X-Forwarded-Host behind a trusted proxy).
  if (url.host.toLowerCase() !== ctx.request.host.toLowerCase()) throw davErrors.badGateway('The Destination is on another server.');
  const inside = davRelative(url.pathname);
  if (inside === undefined) throw davErrors.forbidden('The Destination is outside /dav/.');
  return decodePath(inside).path;
}
