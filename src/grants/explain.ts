import { decide, type Decision, type EntryType, type Subject } from '../authz/index.js';
import {
  canSeeGrant, isInRequestWorkspace, mayListUserGrants, overseesPath, reachOverPath, selfAndAncestorKeys, sitePathOfCall, subjectOf, subjectOfCaller,
  type Call, type SitePath,
} from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { grantsOnPaths, toEngineGrant, type GrantRecord } from '../repositories/grants/index.js';
import { findUserById } from '../repositories/users.js';
import { visibleEntryType } from './path-existence.js';

export interface ExplainRequest {
  path: string;
  userId?: number;
  type?: EntryType;
}

/**
 * Everything an explanation needs: the engine's decision, the target, whose it is, and the grants
 * it mentions, each marked with whether the caller may see it. A grant the caller may not list
 * (another user's grant above a Folder Admin's subtree, a grant outside the request context) still
 * counts in the decision, but its id, path and grantee are withheld.
 */
export interface Explanation {
  site: SitePath;
  type: EntryType;
  /** null when a site-wide key explains itself: it has no user. */
  userId: number | null;
  decision: Decision;
  /** Whether something stands at the path, as far as the caller may see (hidden counts as absent). */
  pathExists: boolean;
  grants: ReadonlyMap<number, { record: GrantRecord; visible: boolean }>;
}

/**
 * GET /permissions/explain (contract 5.5). Without `user_id` it explains the caller. Only a caller
 * that may list that user's grants may ask, and about another user only on a path it oversees;
 * anyone else gets `not-found/user-not-found`, as for an id that does not exist. The decision uses
 * every grant on the path and its ancestors, so that near misses (grants that did not apply, and
 * why) can be shown. A path with no entry, or one the caller may not see, is explained as a file
 * unless `type` says otherwise, and is reported as not existing: the two look the same.
 */
export async function explainAccess(call: Call, request: ExplainRequest): Promise<Explanation> {
  const { db, caller, requestWorkspaceId } = call;
  const { subject, userId } = await subjectToExplain(call, request.userId);
  const site = sitePathOfCall(call, request.path);
  // Every grant on the path and its ancestors: the decision's input, and all the caller's
  // authority that matters here (reachOverPath), so the cost follows this path's grants only.
  const records = await grantsOnPaths(db, selfAndAncestorKeys(site.key));
  const reach = await reachOverPath(db, caller, records);
  // About another user, only where the caller oversees the path: a Folder Admin may list a
  // colleague's grants in its subtree, and must not learn the colleague's access anywhere else.
  const aboutSomeoneElse = userId !== null && userId !== caller.user?.id;
  if (aboutSomeoneElse && !overseesPath(reach, site.workspaceId, site.key)) throw errors.userNotFound();
  const seenType = await visibleEntryType(call, site);
  const type = request.type ?? seenType ?? 'file';
  const decision = decide(subject, { pathKey: site.key, type }, records.map(toEngineGrant));
  const grants = new Map(
    records.map((record) => [record.id, { record, visible: isInRequestWorkspace(requestWorkspaceId, record.pathKey) && canSeeGrant(reach, record) }]),
  );
  return { site, type, userId, decision, pathExists: seenType !== undefined, grants };
}

async function subjectToExplain({ db, caller, requestWorkspaceId }: Call, requestedUserId: number | undefined): Promise<{ subject: Subject; userId: number | null }> {
  const self = caller.user;
  if (requestedUserId === undefined && self === null) return { subject: await subjectOfCaller(db, caller), userId: null };
  if (self !== null && (requestedUserId === undefined || requestedUserId === self.id)) {
    return { subject: await subjectOf(db, self), userId: self.id };
  }
  const user = await findUserById(db, requestedUserId as number);
  if (user === undefined || !(await mayListUserGrants(db, caller, requestWorkspaceId, user))) throw errors.userNotFound();
  return { subject: await subjectOf(db, user), userId: user.id };
}
