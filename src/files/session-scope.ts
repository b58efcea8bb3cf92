import { workspaceRootId, type Subject } from '../authz/index.js';
import { framedSitePath, framePathOf, isConfined, isReservedSitePath, pathFrameOf, subjectOfCaller, type Caller, type PathFrame, type SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import type { Origin } from '../lib/origin.js';
import type { FileDeps } from './file-deps.js';

/**
 * One caller at work in one Workspace, as every file operation sees it: what the operations are
 * made of, the caller with the engine's subject for it, the request's Workspace, and the caller's
 * path frame in it (access/path-frame.ts), whose root bounds every path the session can name and
 * shows: the Workspace root (contract 1.5), or a Partner user's Partner root folder. A
 * FileSession holds one, and every operation behind it takes it first.
 */
export interface SessionScope {
  readonly deps: FileDeps;
  readonly caller: Caller;
  readonly subject: Subject;
  readonly requestWorkspaceId: number;
  /** The front door and client address, for History. */
  readonly origin: Origin;
  /** The folder the caller sees as its root, resolved when the session opens. */
  readonly frame: PathFrame;
  /**
   * Key of the frame's root: '' in Workspace 0, `_/workspaces/N` in Workspace N, a Partner's root
   * folder for its users.
   */
  readonly rootKey: string;
}

export async function openScope(deps: FileDeps, caller: Caller, requestWorkspaceId: number, origin: Origin): Promise<SessionScope> {
  const [subject, frame] = await Promise.all([subjectOfCaller(deps.db, caller), pathFrameOf(deps.db, caller, requestWorkspaceId)]);
  return { deps, caller, origin, subject, requestWorkspaceId, frame, rootKey: frame.rootKey };
}

/**
 * Everything about the scope that a decision or a listing depends on, as a string: two scopes
 * with the same key get the same answers from the same data, so answers may be cached under it.
 */
export function decisionKeyOf(scope: SessionScope): string {
  const { userId, workspaceId, siteAdmin, workspaceAdmin, groupIds } = scope.subject;
  // A confined credential names less than its user's others do (namedSitePath); a Partner user
  // names and is shown paths in its Partner's root folder, which may move between requests.
  const confined = isConfined(scope.caller) ? 1 : 0;
  // A share link sees less than its creator: its reach is part of every answer.
  const link = scope.subject.extent === undefined ? '' : JSON.stringify(scope.subject.extent);
  return `${userId}:${workspaceId}:${siteAdmin ? 1 : 0}:${workspaceAdmin ? 1 : 0}:${[...groupIds].join(',')}:${scope.requestWorkspaceId}:${confined}:${scope.frame.rootKey}:${link}`;
}

/**
 * A client's path in the session's frame as a site path. In a Custom Workspace, or a Partner's
 * root folder, this can only name something inside the frame: `.` and `..` are refused, and the
 * path is joined below the root, so `_/Workspaces/2` there means a folder of that name inside it.
 * A credential confined to Workspace 0 names nothing under `_` there (namedSitePath).
 */
export function sitePathIn(scope: SessionScope, input: string): SitePath {
  return framedSitePath(scope.caller, scope.frame, input);
}

/** How the session's frame shows a site path: relative to its root, null outside it. */
export function shownPathIn(scope: SessionScope, sitePath: string): string | null {
  return framePathOf(scope.frame, sitePath);
}

/** How the session's frame shows a site path the session reached (relative inside a Custom Workspace or a Partner root). */
export function requestPathIn(scope: SessionScope, sitePath: string): string {
  const shown = shownPathIn(scope, sitePath);
  // Every path a session reaches was resolved from its own frame, so it always lies inside it.
  if (shown === null) throw new Error('file path outside the session frame');
  return shown;
}

/**
 * Paths no file operation may create, delete, move or overwrite: the reserved folder `_` in
 * Workspace 0 (only Workspace creation makes folders there), every Workspace root (they come and
 * go with their Workspace), the site root, and the session's frame root (a Partner user's
 * Partner root folder is its Partner's, changed only through the Partner). Refused as `bad-request/invalid-path` whether or
 * not the path exists, so the answer tells a prober nothing.
 */
export function assertChangeablePath(scope: SessionScope, site: SitePath): void {
  if (site.key === '' || site.key === scope.rootKey) throw errors.invalidPath('The root folder cannot be created, deleted, moved or replaced.');
  if (isReservedSitePath(site)) {
    throw errors.invalidPath('The folder "_" is reserved: only Workspace creation makes folders there; use a path inside `_/Workspaces/<id>`.');
  }
  if (workspaceRootId(site.key) !== null) {
    throw errors.invalidPath('A Workspace root folder comes and goes with its Workspace (POST and DELETE /workspaces).');
  }
}
