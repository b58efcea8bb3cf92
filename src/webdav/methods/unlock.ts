import { DavError, davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';

/**
 * UNLOCK (RFC 4918 9.11): removes the lock the Lock-Token header names, 204. The lock must cover
 * the request path (else 409, lock-token-matches-request-uri, also for a token that names no
 * lock or an expired one). Who may remove it is the file session's to decide: the user who took
 * it, or an administrator (403 for anyone else).
 */
export async function unlock(ctx: DavContext): Promise<void> {
  const header = ctx.request.headers['lock-token'];
  const token = /^\s*<([^<>\s]+)>\s*$/.exec(typeof header === 'string' ? header : '')?.[1];
  if (token === undefined) throw davErrors.badRequest('UNLOCK names its lock in the Lock-Token header: Lock-Token: <urn:x-atrium:...>.');
  if (!(await ctx.session.locks.remove(ctx.path, token))) {
    throw new DavError(409, 'No lock with this token covers this resource.', 'lock-token-matches-request-uri');
  }
  ctx.reply.code(204).send();
}
