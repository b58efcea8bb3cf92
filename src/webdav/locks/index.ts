// WebDAV locks (RFC 4918 class 2) in the protocol's terms: what the write methods ask before
// changing anything, and what PROPFIND shows. Which locks exist and which stop a write is the file
// session's to decide (files/resource-locks.ts); here the If header is read and the answers made.
import type { WriteTarget } from '../../files/index.js';
import { DavError, davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';
import { activeLockXml, lockRootHref } from './activelock.js';
import { evaluateIf, ifListsOf } from './if-evaluation.js';

/** 423 Locked, naming the roots of the locks whose tokens were missing (RFC 4918 16, lock-token-submitted). */
export class LockedError extends DavError {
  constructor(hrefs: readonly string[]) {
    super(423, 'The resource is locked: submit the lock\'s token in the If header.', 'lock-token-submitted', hrefs);
  }
}

/**
 * Before a write: 412 when the request's If header has conditions and none of its lists holds; 423
 * when the file session finds locks that stop the write without a token the header submits from
 * a list that holds. 400 for a malformed If header.
 */
export async function assertWritable(ctx: DavContext, target: WriteTarget): Promise<void> {
  const lists = ifListsOf(ctx);
  let submitted: ReadonlySet<string> = new Set();
  if (lists !== undefined) {
    const outcome = await evaluateIf(ctx, lists);
    if (!outcome.holds) throw davErrors.preconditionFailed('No list of the If header holds.');
    submitted = outcome.submitted;
  }
  const blocking = await ctx.session.locks.blocking(target, submitted);
  if (blocking.length > 0) {
    throw new LockedError([...new Set(blocking.map((lock) => lockRootHref(ctx.session, lock)))]);
  }
}

/**
 * For a method that writes nothing (GET, HEAD, PROPFIND): 412 when the request's If header has no
 * list that holds (RFC 4918 10.4 applies it to every method), 400 when it is malformed. Locks do
 * not stop reading, so no token is required.
 */
export async function assertIfHolds(ctx: DavContext): Promise<void> {
  const lists = ifListsOf(ctx);
  if (lists !== undefined && !(await evaluateIf(ctx, lists)).holds) throw davErrors.preconditionFailed('No list of the If header holds.');
}

/**
 * The inner XML of DAV:lockdiscovery ('' for no lock) of every entry of a PROPFIND at once, the
 * locks read once for the request path and all below it. Entries must be the request path or below it.
 */
export async function lockDiscoveryOfRequest(ctx: DavContext): Promise<(path: string) => string> {
  const locksOn = await ctx.session.locks.around(ctx.path);
  const now = ctx.clock.now();
  return (path) => locksOn(path).map((lock) => activeLockXml(lock, ctx.session, now)).join('');
}
