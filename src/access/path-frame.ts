import { isStrictAncestor } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { canonicalPath, joinPath, pathKey, workspaceRootPath } from '../lib/paths.js';
import { partnerRootOf } from '../repositories/partners.js';
import type { User } from '../repositories/users.js';
import type { Caller } from './caller.js';
import { namedSitePath, toRequestPath, toSitePath, type SitePath } from './request-paths.js';

// A caller's path frame: the folder it sees as its root, below which every path it names is
// joined and relative to which every path it is shown is written. For everyone it is the root of
// the request's Workspace (request-paths.ts); for a Partner user it is its Partner's root folder
// (the `partner_root` layout, docs/partners.md), on every door and with every credential. Nothing
// above the frame can be named: paths are joined below it and `.`/`..` are refused, as they are
// for a Workspace root.

/** Files.com's `filesystem_layout` values a user of Atrium can have. */
export type FilesystemLayout = 'site_root' | 'workspace_root' | 'partner_root';

export interface PathFrame {
  /** The request's Workspace (for a Partner user, always its Partner's). */
  readonly workspaceId: number;
  /** Site path of the frame's root: '' (the site root), `_/Workspaces/N`, or a Partner's root folder. */
  readonly rootPath: string;
  /** Its comparison key. */
  readonly rootKey: string;
  /** The Partner whose root folder the frame is, null for a Workspace's frame. */
  readonly partnerId: number | null;
}

/** The frame of everyone but a Partner user: the root of the request's Workspace. */
export function workspaceFrame(requestWorkspaceId: number): PathFrame {
  const rootPath = workspaceRootPath(requestWorkspaceId);
  return { workspaceId: requestWorkspaceId, rootPath, rootKey: pathKey(rootPath), partnerId: null };
}

/**
 * The layout a user sees its files in: its Partner's root folder for a Partner user, its
 * Workspace's root for a user of a Custom Workspace, the site root for a user of Workspace 0.
 */
export function filesystemLayoutOf(user: Pick<User, 'partnerId' | 'workspaceId'>): FilesystemLayout {
  if (user.partnerId !== null) return 'partner_root';
  return user.workspaceId === 0 ? 'site_root' : 'workspace_root';
}

/**
 * The caller's frame in the request's Workspace, from current data: a Partner's root folder is
 * read on each request (each SFTP connection), so a changed `root_folder` applies on the next.
 * A Partner user cannot leave its Partner's Workspace (request-workspace.ts). A Partner deleted
 * while one of its users' requests is under way leaves it nothing to name.
 */
export async function pathFrameOf(db: Db, caller: Caller, requestWorkspaceId: number): Promise<PathFrame> {
  const partnerId = caller.user?.partnerId ?? null;
  if (partnerId === null) return workspaceFrame(requestWorkspaceId);
  const partner = await partnerRootOf(db, partnerId);
  if (partner === undefined || partner.workspaceId !== requestWorkspaceId) throw errors.fileNotFound();
  const rootPath = joinPath(workspaceRootPath(partner.workspaceId), partner.rootFolder);
  return { workspaceId: partner.workspaceId, rootPath, rootKey: pathKey(rootPath), partnerId };
}

/**
 * The site path a path names in the frame, as a filter names it (History's `filter[path]`): in a
 * Workspace's frame as toSitePath reads it, in a Partner's joined below its root folder.
 */
export function siteInFrame(frame: PathFrame, input: string): SitePath {
  if (frame.partnerId === null) return toSitePath(frame.workspaceId, input);
  const path = joinPath(frame.rootPath, canonicalPath(input));
  return { path, key: pathKey(path), workspaceId: frame.workspaceId };
}

/**
 * The site path a caller's file request names in its frame. Within a Workspace's frame the rules
 * of namedSitePath hold; within a Partner's the path is joined below the Partner's root folder,
 * so `Other` there is a folder of that name inside it and `..` is refused (canonicalPath).
 */
export function framedSitePath(caller: Caller, frame: PathFrame, input: string): SitePath {
  return frame.partnerId === null ? namedSitePath(caller, frame.workspaceId, input) : siteInFrame(frame, input);
}

/**
 * A site path as the frame shows it: relative to its root (the root itself is ''), null when it
 * lies outside. A Partner's frame cuts whole segments, so the root folder's spelling (and case
 * folding that changes a name's length) cannot shift the cut.
 */
export function framePathOf(frame: PathFrame, sitePath: string): string | null {
  if (frame.partnerId === null) return toRequestPath(frame.workspaceId, sitePath);
  const key = pathKey(sitePath);
  if (key === frame.rootKey) return '';
  if (!isStrictAncestor(frame.rootKey, key)) return null;
  return sitePath.split('/').slice(frame.rootKey.split('/').length).join('/');
}

/**
 * The characters the keys of the site paths start with that a path prefix names in the frame
 * (History's `filter_prefix[path]`): matched as text, so `Rep` finds `Reports`.
 */
export function prefixKeyInFrame(frame: PathFrame, prefix: string): string {
  const lowered = prefix.replace(/^\/+/, '').toLowerCase();
  return frame.rootKey === '' ? lowered : `${frame.rootKey}/${lowered}`;
}

/**
 * The site path a call names (a grant listing's or an explanation's `path`): in the caller's frame
 * when it has one of its own (a Partner user's), else as the request's Workspace reads it.
 */
export function sitePathOfCall(call: { requestWorkspaceId: number; frame?: PathFrame | undefined }, input: string): SitePath {
  return call.frame === undefined ? toSitePath(call.requestWorkspaceId, input) : siteInFrame(call.frame, input);
}

/** A site path as a call shows it: in the caller's own frame when it has one, else as the request's Workspace does (null outside). */
export function pathOfCall(call: { requestWorkspaceId: number; frame?: PathFrame | undefined }, sitePath: string): string | null {
  return call.frame === undefined ? toRequestPath(call.requestWorkspaceId, sitePath) : framePathOf(call.frame, sitePath);
}
