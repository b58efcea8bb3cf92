import { workspaceRootKey } from '../../authz/index.js';
import { isAdministratorOf, reachOverPath, type Call, type SitePath } from '../../access/index.js';
import { errors } from '../../errors/catalogue.js';
import { findEntries } from '../../repositories/entries.js';
import { grantedPathsPage, type GrantedPath, type GrantRecord } from '../../repositories/grants/index.js';
import { workspaceRootPath } from '../../lib/paths.js';
import { decideReach, planReach, REACH_USER_BATCH, usersInIdOrder, type ReachTarget } from './reach-on.js';
import { ReachVisibility, type ShownUserReach } from './reach-visibility.js';

/** One path's rows of the export: who reaches it, and the grants they mention. */
export interface ExportedPath {
  site: SitePath;
  rows: readonly ShownUserReach[];
  grants: readonly GrantRecord[];
}

/** Paths are read and planned this many at a time: each batch is a handful of queries. */
const PATH_BATCH = 100;

/**
 * The effective-access export: every (user, path) of the request's Workspace where the user can
 * do something, for the Workspace's root and every path that carries a grant in the Workspace, in
 * path key order, users by id. Only an administrator of the request context may ask (Site
 * Administrator, or Workspace Administrator of a Custom Workspace); anyone else gets
 * `not-authorized/site-admin-or-workspace-admin-permission-required`, checked before the first
 * row so that a refusal is an ordinary error answer.
 *
 * The rows are what the reach listing shows this caller path by path (the same computation and
 * visibility), produced lazily a path at a time and read a batch of paths at a time, so that a
 * large Workspace is never held in memory. Each batch reads current data: the export is not one
 * snapshot of a Workspace that changes while it is read.
 */
export async function effectiveAccessExport(call: Call): Promise<AsyncGenerator<ExportedPath>> {
  if (!(await isAdministratorOf(call.db, call.caller, call.requestWorkspaceId))) throw errors.workspaceAdminRequired();
  return exportRows(call);
}

async function* exportRows(call: Call): AsyncGenerator<ExportedPath> {
  const workspaceId = call.requestWorkspaceId;
  const root: GrantedPath = workspaceId === 0 ? { key: '', path: '' } : { key: workspaceRootKey(workspaceId), path: workspaceRootPath(workspaceId) };
  // The root first (a directory, whatever stands there), then the granted paths a batch at a time.
  yield* exportBatch(call, [root], new Set([root.key]));
  let afterKey: string | undefined;
  for (;;) {
    const page = await grantedPathsPage(call.db, workspaceId, afterKey, PATH_BATCH);
    const paths = page.filter((path) => path.key !== root.key);
    if (paths.length > 0) yield* exportBatch(call, paths, new Set());
    if (page.length < PATH_BATCH) return;
    afterKey = (page[page.length - 1] as GrantedPath).key;
  }
}

async function* exportBatch(call: Call, paths: readonly GrantedPath[], directories: ReadonlySet<string>): AsyncGenerator<ExportedPath> {
  const { db, caller, requestWorkspaceId } = call;
  const entries = await findEntries(db, paths.map((path) => path.key));
  // A grant is about a folder: a path with nothing at it yet is answered as one.
  const targets: ReachTarget[] = paths.map((path) => ({
    key: path.key,
    type: directories.has(path.key) ? 'directory' : (entries.get(path.key)?.type ?? 'directory'),
  }));
  const plan = await planReach(db, targets);
  // Every grant on the batch's paths and their ancestors: all the caller's authority that matters here.
  const visibility = new ReachVisibility(call, await reachOverPath(db, caller, plan.grants));
  for (const [index, target] of targets.entries()) {
    const path = paths[index] as GrantedPath;
    const site: SitePath = { path: path.path, key: path.key, workspaceId: requestWorkspaceId };
    const ids = plan.byTarget.get(target.key)?.candidateIds ?? [];
    // A user batch at a time: a path open to a huge group is never held whole.
    for (let i = 0; i < ids.length; i += REACH_USER_BATCH) {
      const users = [];
      for (const user of await usersInIdOrder(db, ids.slice(i, i + REACH_USER_BATCH))) {
        if (await visibility.maySee(site, user)) users.push(user);
      }
      const rows = decideReach(plan, target, users).map((row) => visibility.show(row));
      if (rows.length > 0) yield { site, rows, grants: plan.grants };
    }
  }
}
