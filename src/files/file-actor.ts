import { workspaceRootId, workspaceRootKey, type Subject } from '../authz/index.js';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { subjectOfCaller } from '../access/index.js';
import { isReservedSitePath, toRequestPath, toSitePath, type SitePath } from '../access/index.js';

/**
 * Who performs a file operation and where: the caller, the engine's subject for it, and the
 * request context, whose root bounds every path the request can name (contract 1.5).
 */
export interface FileActor {
  readonly caller: Caller;
  readonly subject: Subject;
  readonly requestWorkspaceId: number;
  /** Key of the context's root: '' in context 0, `_/workspaces/N` in context N. */
  readonly rootKey: string;
}

export async function fileActorOf(db: Db, caller: Caller, requestWorkspaceId: number): Promise<FileActor> {
  const subject = await subjectOfCaller(db, caller);
  return {
    caller,
    subject,
    requestWorkspaceId,
    rootKey: requestWorkspaceId === 0 ? '' : workspaceRootKey(requestWorkspaceId),
  };
}

/**
 * Everything about the actor that a decision or a listing depends on, as a string: two actors
 * with the same key get the same answers from the same data, so answers may be cached under it.
 */
export function actorDecisionKey(actor: FileActor): string {
  const { userId, workspaceId, siteAdmin, workspaceAdmin, groupIds } = actor.subject;
  return `${userId}:${workspaceId}:${siteAdmin ? 1 : 0}:${workspaceAdmin ? 1 : 0}:${[...groupIds].join(',')}:${actor.requestWorkspaceId}`;
}

/**
 * A client's path in the actor's context as a site path. In a Custom Workspace this can only name
 * something inside its root: toSitePath refuses `.` and `..`, and the path is joined below the
 * root, so `_/Workspaces/2` there means a folder of that name inside the Workspace itself.
 */
export function sitePathFor(actor: FileActor, input: string): SitePath {
  return toSitePath(actor.requestWorkspaceId, input);
}

/** How the actor's context shows a site path (relative inside a Custom Workspace). */
export function requestPathOf(actor: FileActor, sitePath: string): string {
  const shown = toRequestPath(actor.requestWorkspaceId, sitePath);
  // Every path a request reaches was resolved from its own context, so it always lies inside it.
  if (shown === null) throw new Error('file path outside the request context');
  return shown;
}

/**
 * Paths no file operation may create, delete, move or overwrite: the reserved folder `_` in
 * context 0 (only Workspace creation makes folders there), every Workspace root (they come and
 * go with their Workspace), and the site root. Refused as `bad-request/invalid-path` whether or
 * not the path exists, so the answer tells a prober nothing.
 */
export function assertChangeablePath(actor: FileActor, site: SitePath): void {
  if (site.key === '' || site.key === actor.rootKey) throw errors.invalidPath('The root folder cannot be created, deleted, moved or replaced.');
  if (isReservedSitePath(site)) {
    throw errors.invalidPath('The folder "_" is reserved: only Workspace creation makes folders there; use a path inside `_/Workspaces/<id>`.');
  }
  if (workspaceRootId(site.key) !== null) {
    throw errors.invalidPath('A Workspace root folder comes and goes with its Workspace (POST and DELETE /workspaces).');
  }
}
