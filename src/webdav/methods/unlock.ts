import { isAdministratorOf } from '../../access/index.js';
import { DavError, davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';
import { ownsLock } from '../locks/index.js';
import { covers, findLock, removeLock } from '../locks/lock-store.js';

/**
 * UNLOCK (RFC 4918 9.11): removes the lock the Lock-Token header names, 204. The lock must cover
 * the request path (else 409, lock-token-matches-request-uri, also for a token that names no
 * lock or an expired one). Only the user who took it may, or an administrator of the Workspace
 * it lies in (a Site Administrator anywhere): someone else's stale lock is theirs to clear (403
 * for anyone else).
 */
export async function unlock(ctx: DavContext): Promise<void> {
  const header = ctx.request.headers['lock-token'];
  const token = /^\s*<([^<>\s]+)>\s*$/.exec(typeof header === 'string' ? header : '')?.[1];
  if (token === undefined) throw davErrors.badRequest('UNLOCK names its lock in the Lock-Token header: Lock-Token: <urn:x-atrium:...>.');
  const site = ctx.session.locate(ctx.path);
  const found = await findLock(ctx.db, token, ctx.clock.now());
  if (found === undefined || !covers(found, site.key)) {
    throw new DavError(409, 'No lock with this token covers this resource.', 'lock-token-matches-request-uri');
  }
  if (!ownsLock(ctx.caller, found) && !(await isAdministratorOf(ctx.db, ctx.caller, site.workspaceId))) {
    throw davErrors.forbidden('Only the user who took a lock, or an administrator, may remove it.');
  }
  await removeLock(ctx.db, found.token);
  ctx.reply.code(204).send();
}
