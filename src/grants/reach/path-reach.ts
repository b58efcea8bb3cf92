import type { EntryType } from '../../authz/index.js';
import { reachOverPath, selfAndAncestorKeys, sitePathOfCall, type Call, type SitePath } from '../../access/index.js';
import type { PageRequest } from '../../lib/paging.js';
import { grantsOnPaths, type GrantRecord } from '../../repositories/grants/index.js';
import { visibleEntryType } from '../path-existence.js';
import { decideReach, planReach, REACH_USER_BATCH, usersInIdOrder } from './reach-on.js';
import { ReachVisibility, type ShownUserReach } from './reach-visibility.js';

export interface ReachRequest {
  path: string;
  type?: EntryType;
}

export interface PathReach {
  site: SitePath;
  type: EntryType;
  /** Up to `limit + 1` users in id order, so that the front door can tell whether a page follows. */
  rows: ShownUserReach[];
  /** Every grant the rows mention, for naming their groups. */
  grants: readonly GrantRecord[];
}

/**
 * GET /permissions/reach: every user who can reach a path in the request context, a page at a
 * time by user id, each decided by the engine (reach-on.ts). The caller sees what explaining each
 * user one by one would show it (reach-visibility.ts): where it oversees the path, every user whose
 * grants it may list; anywhere else only itself. So a caller without authority over a path gets the
 * same answer whether the path exists or not, and the path's type is read as explain reads it (a
 * path the caller may not see is taken as a file unless `type` says otherwise). The cost follows
 * the grants on the path and its ancestors and the members of the groups they name.
 */
export async function reachOfPath(call: Call, request: ReachRequest, page: PageRequest<number>): Promise<PathReach> {
  const { db, caller } = call;
  const site = sitePathOfCall(call, request.path);
  const grants = await grantsOnPaths(db, selfAndAncestorKeys(site.key));
  const visibility = new ReachVisibility(call, await reachOverPath(db, caller, grants));
  const type = request.type ?? (await visibleEntryType(call, site)) ?? 'file';
  const target = { key: site.key, type };
  const plan = await planReach(db, [target], grants);
  const selfId = caller.user?.id;
  const after = page.after ?? 0;
  const candidates = (plan.byTarget.get(site.key)?.candidateIds ?? [])
    .filter((id) => id > after && (visibility.oversees(site) || id === selfId));
  const rows: ShownUserReach[] = [];
  // Users are read about a page at a time: most candidates reach, so one batch usually fills it.
  const batch = Math.min(REACH_USER_BATCH, Math.max(page.limit + 1, 64));
  for (let i = 0; i < candidates.length && rows.length <= page.limit; i += batch) {
    const users = [];
    for (const user of await usersInIdOrder(db, candidates.slice(i, i + batch))) {
      if (await visibility.maySee(site, user)) users.push(user);
    }
    rows.push(...decideReach(plan, target, users).map((row) => visibility.show(row)));
  }
  return { site, type, rows: rows.slice(0, page.limit + 1), grants };
}
