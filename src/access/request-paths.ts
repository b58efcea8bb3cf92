import { isStrictAncestor, workspaceOfPath, workspaceRootKey } from '../authz/index.js';
import { errors } from '../errors/catalogue.js';
import { canonicalPath, joinPath, pathKey, workspaceRootPath } from '../lib/paths.js';
import type { Caller } from './caller.js';
import { isConfined, reachesWorkspace } from './site-level.js';

/**
 * A folder path as the site knows it (contract 1.5): `path` is the qualified site path in its
 * display spelling, `key` its lower-cased comparison key, `workspaceId` the Workspace it lies in
 * (N on or under `_/Workspaces/N`, otherwise 0).
 */
export interface SitePath {
  readonly path: string;
  readonly key: string;
  readonly workspaceId: number;
}

const RESERVED_TOP = '_';

/**
 * Turns a path as a client sends it in request context `requestWorkspaceId` into a site path.
 * In context 0 paths are site paths; in context N >= 1 they are relative to `_/Workspaces/N`, the
 * empty path is its root, and nothing outside it can be named: canonicalPath refuses `.` and
 * `..`, so a relative path can only go down from the root.
 *
 * In context 0 the `_/Workspaces/N` prefix is respelled canonically whatever case the client used,
 * so that every stored path of Workspace N starts with the same characters and the relative form
 * is a plain slice of it.
 */
export function toSitePath(requestWorkspaceId: number, input: string): SitePath {
  const canonical = canonicalPath(input);
  if (requestWorkspaceId >= 1) {
    const path = joinPath(workspaceRootPath(requestWorkspaceId), canonical);
    return { path, key: pathKey(path), workspaceId: requestWorkspaceId };
  }
  const key = pathKey(canonical);
  const workspaceId = workspaceOfPath(key);
  if (workspaceId === 0) return { path: canonical, key, workspaceId };
  const root = workspaceRootPath(workspaceId);
  const path = root + canonical.slice(root.length);
  return { path, key: pathKey(path), workspaceId };
}

/**
 * Whether a site path lies in the reserved top-level folder `_` without being inside a Custom
 * Workspace root: `_` itself, `_/Workspaces`, and anything else under `_` (`_/x`,
 * `_/Workspaces/abc`, `_/Workspaces/0`). Only Workspace creation makes folders there.
 */
export function isReservedSitePath(site: SitePath): boolean {
  if (site.workspaceId !== 0) return false;
  return site.key === RESERVED_TOP || site.key.startsWith(`${RESERVED_TOP}/`);
}

/**
 * The site path a caller's file request names (toSitePath), or `not-found/file-not-found` when it
 * lies outside the Workspace the caller's credential is confined to (contract 4.3). In a Custom
 * Workspace nothing else can be named anyway; in Workspace 0 a confined credential (a `files_only`
 * key made there) may not reach into a Custom Workspace by its qualified path `_/Workspaces/N/...`,
 * nor name the reserved folder `_` that holds them, even when its user is a Site Administrator.
 * Answered as a path that does not exist, so nothing is learnt of what lies there.
 */
export function namedSitePath(caller: Caller, requestWorkspaceId: number, input: string): SitePath {
  const site = toSitePath(requestWorkspaceId, input);
  if (!reachesWorkspace(caller, site.workspaceId) || (isConfined(caller) && isReservedSitePath(site))) throw errors.fileNotFound();
  return site;
}

/**
 * The children of folder `folderKey` that a listing leaves out for the caller, as namedSitePath
 * refuses them: the reserved folder `_` in the site root, for a credential confined to Workspace 0.
 */
export function childrenOutsideReach(caller: Caller, requestWorkspaceId: number, folderKey: string): string[] {
  return folderKey === '' && requestWorkspaceId === 0 && isConfined(caller) ? [RESERVED_TOP] : [];
}

/**
 * A site path as request context `requestWorkspaceId` shows it: unchanged in context 0, relative
 * to the Workspace root in context N (the root itself is ''), and null when it lies outside N,
 * which that context cannot name.
 */
export function toRequestPath(requestWorkspaceId: number, sitePath: string): string | null {
  if (requestWorkspaceId === 0) return sitePath;
  const rootKey = workspaceRootKey(requestWorkspaceId);
  const key = pathKey(sitePath);
  if (key === rootKey) return '';
  if (!isStrictAncestor(rootKey, key)) return null;
  // The prefix is ASCII, so its length is the same in the display spelling and in the key.
  return sitePath.slice(rootKey.length + 1);
}

/** Whether a site path key can be named from request context `requestWorkspaceId`. */
export function isInRequestWorkspace(requestWorkspaceId: number, key: string): boolean {
  if (requestWorkspaceId === 0) return true;
  const rootKey = workspaceRootKey(requestWorkspaceId);
  return key === rootKey || isStrictAncestor(rootKey, key);
}

/**
 * The site path of a grant to be created, refusing the reserved folders (see isReservedSitePath):
 * a grant there could only ever confuse, since nothing but Workspace roots lives under `_`.
 * Whether a named Custom Workspace exists is checked later, after authority, so that a caller
 * without authority cannot probe which Workspace ids exist.
 */
export function grantableSitePath(requestWorkspaceId: number, input: string): SitePath {
  const site = toSitePath(requestWorkspaceId, input);
  if (isReservedSitePath(site)) {
    throw errors.invalidPath(
      'The folder "_" is reserved: a grant there must name a Custom Workspace root `_/Workspaces/<id>` or a folder inside one.',
    );
  }
  return site;
}
