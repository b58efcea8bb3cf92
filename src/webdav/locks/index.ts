// WebDAV locks (RFC 4918 class 2): what the write methods ask before changing anything, what
// PROPFIND shows, and what DELETE and MOVE clear. Locks live in the database (lock-store.ts), so
// they hold on every worker and node.
import type { Caller } from '../../access/index.js';
import type { DavLock } from '../../repositories/dav-locks.js';
import { DavError, davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';
import { activeLockXml, lockRootHref } from './activelock.js';
import { evaluateIf, ifListsOf } from './if-evaluation.js';
import { covers, locksBelow, locksCovering, removeLocksAtOrBelow, removeLocksBelow } from './lock-store.js';

export interface WriteTarget {
  /** Request paths the method changes (a MOVE: its source and destination). */
  paths: readonly string[];
  /** The change reaches everything below `paths` too (DELETE, MOVE, COPY Depth infinity of a folder). */
  recursive: boolean;
  /**
   * Folders that gain or lose a member (the parent of a created, deleted or moved path): a lock on
   * the folder itself protects its membership (RFC 4918 7.5), even a depth-0 one; locks on its
   * other members are not concerned, whatever `recursive` says.
   */
  parents?: readonly string[];
}

/** 423 Locked, naming the roots of the locks whose tokens were missing (RFC 4918 16, lock-token-submitted). */
export class LockedError extends DavError {
  constructor(hrefs: readonly string[]) {
    super(423, 'The resource is locked: submit the lock\'s token in the If header.', 'lock-token-submitted', hrefs);
  }
}

/** Whether the caller is the one who took the lock (the same user; for a site-wide key, any site-wide key). */
export function ownsLock(caller: Caller, lock: DavLock): boolean {
  return lock.userId === (caller.user?.id ?? null);
}

/**
 * Before a write: 412 when the request's If header has conditions and none of its lists holds; 423
 * when a path (or, recursive, anything below it) is covered by a lock whose token the header does
 * not submit from a list that holds, or submits for a lock another user took. Of several shared
 * locks on a resource, one token is enough. 400 for a malformed If header.
 */
export async function assertWritable(ctx: DavContext, target: WriteTarget): Promise<void> {
  const now = ctx.clock.now();
  const lists = ifListsOf(ctx);
  let submitted: ReadonlySet<string> = new Set();
  if (lists !== undefined) {
    const outcome = await evaluateIf(ctx, lists, now);
    if (!outcome.holds) throw davErrors.preconditionFailed('No list of the If header holds.');
    submitted = outcome.submitted;
  }
  const missing = new Map<string, DavLock>();
  const checks = [...target.paths.map((path) => ({ path, recursive: target.recursive })), ...(target.parents ?? []).map((path) => ({ path, recursive: false }))];
  for (const { path, recursive } of checks) {
    const key = ctx.session.locate(path).key;
    const near = await locksCovering(ctx.db, key, now);
    const below = recursive ? await locksBelow(ctx.db, key, now) : [];
    if (near.length === 0 && below.length === 0) continue;
    const all = [...near, ...below];
    // Each locked resource needs one of the locks covering it submitted by its owner.
    const resources = new Set([...(near.length > 0 ? [key] : []), ...below.map((lock) => lock.pathKey)]);
    for (const resource of resources) {
      const covering = all.filter((lock) => covers(lock, resource));
      if (covering.some((lock) => submitted.has(lock.token) && ownsLock(ctx.caller, lock))) continue;
      for (const lock of covering) missing.set(lock.token, lock);
    }
  }
  if (missing.size > 0) {
    const workspaceId = ctx.caller.homeWorkspaceId;
    throw new LockedError([...new Set([...missing.values()].map((lock) => lockRootHref(workspaceId, lock)))]);
  }
}

/**
 * For a method that writes nothing (GET, HEAD, PROPFIND): 412 when the request's If header has no
 * list that holds (RFC 4918 10.4 applies it to every method), 400 when it is malformed. Locks do
 * not stop reading, so no token is required.
 */
export async function assertIfHolds(ctx: DavContext): Promise<void> {
  const lists = ifListsOf(ctx);
  if (lists !== undefined && !(await evaluateIf(ctx, lists, ctx.clock.now())).holds) throw davErrors.preconditionFailed('No list of the If header holds.');
}

/**
 * The inner XML of DAV:lockdiscovery ('' for no lock) of every entry of a PROPFIND at once: the
 * locks on and below the request path are read in one query pair, then each entry's are found
 * without waiting (its path located only when some lock was found). Entries must be the request
 * path or below it.
 */
export async function lockDiscoveryOfRequest(ctx: DavContext): Promise<(path: string) => string> {
  const now = ctx.clock.now();
  const requestKey = ctx.session.locate(ctx.path).key;
  const [near, below] = await Promise.all([locksCovering(ctx.db, requestKey, now), locksBelow(ctx.db, requestKey, now)]);
  const locks = [...near, ...below];
  if (locks.length === 0) return () => '';
  const workspaceId = ctx.caller.homeWorkspaceId;
  return (path) => {
    const key = ctx.session.locate(path).key;
    return locks.filter((lock) => covers(lock, key)).map((lock) => activeLockXml(lock, workspaceId, now)).join('');
  };
}

/**
 * Removes the locks on a path and below it, after it was deleted or moved away (locks go with the
 * resource, never with a copy). With `onlyBelow`, the locks on the path itself stay: a COPY or MOVE
 * that replaced a locked destination leaves the new resource under the destination's lock (RFC
 * 4918 7.7), which is how an editor that saves by writing a temporary file and moving it over the
 * original keeps its lock.
 */
export async function releaseLocksUnder(ctx: DavContext, path: string, options: { onlyBelow?: boolean } = {}): Promise<void> {
  const key = ctx.session.locate(path).key;
  if (options.onlyBelow === true) await removeLocksBelow(ctx.db, key);
  else await removeLocksAtOrBelow(ctx.db, key);
}
