import type { DavLock } from '../../files/index.js';
import { DavError, davErrors } from '../dav-error.js';
import { hrefOf, parentOf, type DavContext } from '../dav-request.js';
import { activeLockXml, lockRootHref } from '../locks/activelock.js';
import { ifListsOf } from '../locks/if-evaluation.js';
import { assertIfHolds, assertWritable } from '../locks/index.js';
import { parseLockInfo } from '../locks/lockinfo.js';
import { requestedTimeout } from '../locks/timeout.js';
import { readTextBody } from '../xml/body.js';
import { multistatus, xmlDeclaration } from '../xml/multistatus.js';
import { headerOf } from './lookup.js';

/**
 * LOCK (RFC 4918 9.10): with a DAV:lockinfo body, takes an exclusive or shared write lock on the
 * request path, Depth 0 or infinity (the default), for the Timeout asked. An unmapped path becomes
 * an empty file, locked (7.3), answered 201. Without a body, refreshes the lock the If header
 * names. A conflicting lock on the path or above is 423; with depth infinity, one below is a 207
 * naming it. Who may lock, for how long, and how many locks a resource may have is the file
 * session's to decide (files/resource-locks.ts).
 */
export async function lock(ctx: DavContext): Promise<void> {
  const depth = lockDepth(ctx);
  const timeoutSeconds = requestedTimeout(headerOf(ctx, 'timeout'));
  const body = await readTextBody(ctx);
  if (body.trim() === '') return refresh(ctx, timeoutSeconds);
  const info = parseLockInfo(body);

  const entry = await ctx.session.locks.lockable(ctx.path);
  if (entry === undefined) {
    // A locked empty resource is a new member of its folder: a lock there must allow it.
    await assertWritable(ctx, { paths: [ctx.path], parents: [parentOf(ctx.path)], recursive: false });
  } else {
    await assertIfHolds(ctx);
  }

  const taken = await ctx.session.locks.take(ctx.path, { depth, scope: info.scope, ownerXml: info.ownerXml, timeoutSeconds });
  if (taken.lock === undefined) return refuseConflict(ctx, taken, entry?.type === 'directory');
  answerLock(ctx, taken.created ? 201 : 200, taken.lock, true);
}

/** A refresh (9.10.2): the If header names a lock of the caller's covering the path; it gets the new timeout. */
async function refresh(ctx: DavContext, timeoutSeconds: number | undefined): Promise<void> {
  const lists = ifListsOf(ctx);
  if (lists === undefined) throw davErrors.badRequest('A LOCK without a body refreshes a lock, named by its token in the If header.');
  const named = new Set(lists.flatMap((list) => list.conditions.flatMap((condition) => (condition.kind === 'token' && !condition.not ? [condition.token] : []))));
  const renewed = await ctx.session.locks.refresh(ctx.path, named, timeoutSeconds);
  if (renewed === undefined) throw new DavError(412, 'The If header names no lock of yours on this resource.', 'lock-token-matches-request-uri');
  answerLock(ctx, 200, renewed, false);
}

function answerLock(ctx: DavContext, status: number, taken: DavLock, withToken: boolean): void {
  if (withToken) ctx.reply.header('Lock-Token', `<${taken.token}>`);
  ctx.reply.code(status).type('application/xml; charset=utf-8')
    .send(`${xmlDeclaration}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(taken, ctx.session, ctx.clock.now())}</D:lockdiscovery></D:prop>\n`);
}

/**
 * A conflict on the path or above it is 423 with DAV:no-conflicting-lock naming the lock roots;
 * conflicts only below a depth-infinity request are a 207: each conflicting root 423, the request
 * path 424 (9.10.9).
 */
function refuseConflict(ctx: DavContext, refused: { conflicts: readonly DavLock[]; onlyBelow: boolean }, collection: boolean): void {
  const hrefs = [...new Set(refused.conflicts.map((conflict) => lockRootHref(ctx.session, conflict)))];
  if (!refused.onlyBelow) throw new DavError(423, 'A conflicting lock is held on the resource.', 'no-conflicting-lock', hrefs);
  const responses = [...hrefs.map((href) => ({ href, status: 423 })), { href: hrefOf(ctx.path, collection), status: 424 }];
  ctx.reply.code(207).type('application/xml; charset=utf-8').send(multistatus(responses));
}

function lockDepth(ctx: DavContext): '0' | 'infinity' {
  const depth = headerOf(ctx, 'depth')?.trim().toLowerCase();
  if (depth === undefined || depth === 'infinity') return 'infinity';
  if (depth === '0') return '0';
  throw davErrors.badRequest('A LOCK has Depth 0 or infinity.');
}
