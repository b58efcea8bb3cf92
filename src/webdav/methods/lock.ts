import { Readable } from 'node:stream';
import { AtriumError } from '../../errors/atrium-error.js';
import type { FileEntry } from '../../files/index.js';
import type { DavLock } from '../../repositories/dav-locks.js';
import { DavError, davErrors } from '../dav-error.js';
import { hrefOf, parentOf, type DavContext } from '../dav-request.js';
import { activeLockXml, lockRootHref } from '../locks/activelock.js';
import { ifListsOf } from '../locks/if-evaluation.js';
import { assertIfHolds, assertWritable, ownsLock } from '../locks/index.js';
import { covers, locksCovering, removeLock, renewLock, takeLock } from '../locks/lock-store.js';
import { parseLockInfo } from '../locks/lockinfo.js';
import { grantedTimeout } from '../locks/timeout.js';
import { readTextBody } from '../xml/body.js';
import { multistatus, xmlDeclaration } from '../xml/multistatus.js';

/**
 * LOCK (RFC 4918 9.10): with a DAV:lockinfo body, takes an exclusive or shared write lock on the
 * request path, Depth 0 or infinity (the default), for the Timeout asked up to the server's
 * maximum (locks/timeout.ts). An unmapped path becomes an empty file, locked (7.3), answered 201.
 * Without a body, refreshes the lock the If header names. A conflicting lock on the path or
 * above is 423; with depth infinity, one below is a 207 naming it.
 */
export async function lock(ctx: DavContext): Promise<void> {
  const now = ctx.clock.now();
  const depth = lockDepth(ctx);
  const timeoutSeconds = grantedTimeout(headerOf(ctx, 'timeout'));
  const body = await readTextBody(ctx);
  if (body.trim() === '') return refresh(ctx, now, timeoutSeconds);
  const info = parseLockInfo(body);

  const entry = await statOrUndefined(ctx);
  if (entry !== undefined && !entry.capabilities.includes('write')) throw davErrors.forbidden('Locking needs permission to write the resource.');
  if (entry === undefined) {
    // A locked empty resource is a new member of its folder: a lock there must allow it.
    await assertWritable(ctx, { paths: [ctx.path], parents: [parentOf(ctx.path)], recursive: false });
  } else {
    await assertIfHolds(ctx);
  }

  const site = ctx.session.locate(ctx.path);
  const collection = entry?.type === 'directory';
  const taken = await takeLock(ctx.db, now, { site, collection, depth, scope: info.scope, ownerXml: info.ownerXml, userId: ctx.caller.user?.id ?? null, timeoutSeconds });
  if (taken.lock === undefined) return refuseConflict(ctx, taken.conflicts, site.key, collection);

  let status = 200;
  if (entry === undefined) {
    try {
      await ctx.session.write(ctx.path, Readable.from([]), { mkdirParents: false, declaredLength: 0 });
    } catch (error) {
      await removeLock(ctx.db, taken.lock.token);
      throw error;
    }
    status = 201;
  }
  answerLock(ctx, status, taken.lock, now, true);
}

/** A refresh (9.10.2): the If header names a lock of the caller's covering the path; it gets the new timeout. */
async function refresh(ctx: DavContext, now: number, timeoutSeconds: number): Promise<void> {
  const lists = ifListsOf(ctx);
  if (lists === undefined) throw davErrors.badRequest('A LOCK without a body refreshes a lock, named by its token in the If header.');
  const named = new Set(lists.flatMap((list) => list.conditions.flatMap((condition) => (condition.kind === 'token' && !condition.not ? [condition.token] : []))));
  const key = ctx.session.locate(ctx.path).key;
  const found = (await locksCovering(ctx.db, key, now)).find((candidate) => named.has(candidate.token) && ownsLock(ctx.caller, candidate));
  if (found === undefined) throw new DavError(412, 'The If header names no lock of yours on this resource.', 'lock-token-matches-request-uri');
  answerLock(ctx, 200, await renewLock(ctx.db, now, found, timeoutSeconds), now, false);
}

function answerLock(ctx: DavContext, status: number, taken: DavLock, now: number, withToken: boolean): void {
  if (withToken) ctx.reply.header('Lock-Token', `<${taken.token}>`);
  ctx.reply.code(status).type('application/xml; charset=utf-8')
    .send(`${xmlDeclaration}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(taken, ctx.caller.homeWorkspaceId, now)}</D:lockdiscovery></D:prop>\n`);
}

/**
 * A conflict on the path or above it is 423 with DAV:no-conflicting-lock naming the lock roots;
 * conflicts only below a depth-infinity request are a 207: each conflicting root 423, the request
 * path 424 (9.10.9).
 */
function refuseConflict(ctx: DavContext, conflicts: readonly DavLock[], key: string, collection: boolean): void {
  const workspaceId = ctx.caller.homeWorkspaceId;
  const hrefs = [...new Set(conflicts.map((conflict) => lockRootHref(workspaceId, conflict)))];
  if (conflicts.some((conflict) => covers(conflict, key))) throw new DavError(423, 'A conflicting lock is held on the resource.', 'no-conflicting-lock', hrefs);
  const responses = [...hrefs.map((href) => ({ href, status: 423 })), { href: hrefOf(ctx.path, collection), status: 424 }];
  ctx.reply.code(207).type('application/xml; charset=utf-8').send(multistatus(responses));
}

function lockDepth(ctx: DavContext): '0' | 'infinity' {
  const depth = headerOf(ctx, 'depth')?.trim().toLowerCase();
  if (depth === undefined || depth === 'infinity') return 'infinity';
  if (depth === '0') return '0';
  throw davErrors.badRequest('A LOCK has Depth 0 or infinity.');
}

function headerOf(ctx: DavContext, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function statOrUndefined(ctx: DavContext): Promise<FileEntry | undefined> {
  try {
    return await ctx.session.stat(ctx.path);
  } catch (error) {
    if (error instanceof AtriumError && error.family === 'not-found') return undefined;
    throw error;
  }
}
