import { workspaceRootId, workspaceRootKey, type Subject } from '../authz/index.js';
import { isConfined, isReservedSitePath, namedSitePath, subjectOfCaller, toRequestPath, type Caller, type SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import type { Origin } from '../lib/origin.js';
import type { FileDeps } from './file-deps.js';

/**
 * One caller at work in one Workspace, as every file operation sees it: what the operations are
 * made of, the caller with the engine's subject for it, and the request's Workspace, whose root
 * bounds every path the session can name (contract 1.5). A FileSession holds one, and every
 * operation behind it takes it first.
 */
export interface SessionScope {
  readonly deps: FileDeps;
  readonly caller: Caller;
  readonly subject: Subject;
  readonly requestWorkspaceId: number;
  /** The front door and client address, for History. */
  readonly origin: Origin;
  /** Key of the request Workspace's root: '' in Workspace 0, `_/workspaces/N` in Workspace N. */
  readonly rootKey: string;
}

export async function openScope(deps: FileDeps, caller: Caller, requestWorkspaceId: number, origin: Origin): Promise<SessionScope> {
  return {
    deps,
    caller,
    origin,
    subject: await subjectOfCaller(deps.db, caller),
    requestWorkspaceId,
    rootKey: requestWorkspaceId === 0 ? '' : workspaceRootKey(requestWorkspaceId),
  };
}

/**
 * Everything about the scope that a decision or a listing depends on, as a string: two scopes
 * with the same key get the same answers from the same data, so answers may be cached under it.
 */
export function decisionKeyOf(scope: SessionScope): string {
  const { userId, workspaceId, siteAdmin, workspaceAdmin, groupIds } = scope.subject;
  // A confined credential names less than its user's others do (namedSitePath).
  const confined = isConfined(scope.caller) ? 1 : 0;
  return `${userId}:${workspaceId}:${siteAdmin ? 1 : 0}:${workspaceAdmin ? 1 : 0}:${[...groupIds].join(',')}:${scope.requestWorkspaceId}:${confined}`;
}

/**
 * A client's path in the request Workspace as a site path. In a Custom Workspace this can only
 * name something inside its root: toSitePath refuses `.` and `..`, and the path is joined below
 * the root, so `_/Workspaces/2` there means a folder of that name inside the Workspace itself. A
 * credential confined to Workspace 0 names nothing under `_` there (namedSitePath).
 */
export function sitePathIn(scope: SessionScope, input: string): SitePath {
  return namedSitePath(scope.caller, scope.requestWorkspaceId, input);
}

/** How the request Workspace shows a site path (relative inside a Custom Workspace). */
export function requestPathIn(scope: SessionScope, sitePath: string): string {
  const shown = toRequestPath(scope.requestWorkspaceId, sitePath);
  // Every path a session reaches was resolved from its own Workspace, so it always lies inside it.
  if (shown === null) throw new Error('file path outside the request Workspace');
  return shown;
}

/**
 * Paths no file operation may create, delete, move or overwrite: the reserved folder `_` in
 * Workspace 0 (only Workspace creation makes folders there), every Workspace root (they come and
 * go with their Workspace), and the site root. Refused as `bad-request/invalid-path` whether or
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
