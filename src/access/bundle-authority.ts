import { workspaceRootKey } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { SHARE_LINK_PERMISSIONS, shareLinkAcceptsUploads, type ShareLinkPermissions } from './share-link-reach.js';
import { type Bundle, type BundlePath, findBundleById } from '../repositories/bundles.js';
import { findEntry } from '../repositories/entries.js';
import { inScope, type Scope } from '../repositories/scope.js';
import { findUserById, type User } from '../repositories/users.js';
import { isAdministratorOf, subjectOf } from './authority.js';
import type { Caller } from './caller.js';
import { listScope } from './list-scope.js';
import { PathAccess } from './path-access.js';
import type { SitePath } from './request-paths.js';
import { findVisibleUser } from './user-visibility.js';

// Who may make, see and change share links (docs/sharing.md#who-may). A link hands what it shares
// to anyone holding its URL, on its creator's authority, so:
// - making or changing a link needs, on every path it shares, the creator's Share permission
//   (`bundle`, or `admin`), and write there too for a link that takes uploads;
// - a link is seen, changed and deleted by its creator and by the administrators of its Workspace
//   (Site Administrators, Workspace Administrators); to anyone else, and from another Workspace,
//   it does not exist: not found, never refused, so nothing is learnt of it.

/**
 * The links a listing shows (and the links whose records it shows): every link in scope to an
 * administrator of the request context, the caller's own to anyone else.
 */
export async function bundleListScope(db: Db, caller: Caller, requestWorkspaceId: number): Promise<{ scope: Scope; creatorId?: number }> {
  const scope = listScope(caller, requestWorkspaceId);
  if (await isAdministratorOf(db, caller, requestWorkspaceId)) return { scope };
  // Not an administrator, so a user (a site-wide key is a Site Administrator): its own links.
  return { scope, creatorId: caller.user?.id ?? -1 };
}

/** The link when the caller may see (and so change and delete) it in this context, else `not-found`. */
export async function findVisibleBundle(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<Bundle> {
  const bundle = await findBundleById(db, id);
  if (bundle === undefined || !inScope(listScope(caller, requestWorkspaceId), bundle.workspaceId)) throw errors.bundleNotFound();
  const own = bundle.userId !== null && caller.user?.id === bundle.userId;
  if (!own && !(await isAdministratorOf(db, caller, bundle.workspaceId))) throw errors.bundleNotFound();
  return bundle;
}

/**
 * The user a new link (or a link handed over) belongs to: the caller's own user, or, named by
 * `user_id`, a user the caller sees, when the caller administers the link's Workspace. A
 * site-wide key has no user of its own, so it must name one: a link is always someone's.
 */
export async function bundleCreator(db: Db, caller: Caller, workspaceId: number, userId: number | undefined): Promise<User> {
  const own = caller.user;
  if (userId === undefined || userId === 0 || userId === own?.id) {
    if (own === null) throw errors.paramsRequired({ user_id: ['names the user the link belongs to: a site-wide API key has no user of its own'] });
    return own;
  }
  if (!(await isAdministratorOf(db, caller, workspaceId))) {
    throw errors.insufficientPermissionForParams('Only an administrator of this Workspace may make or hand over a share link for another user (user_id).');
  }
  return findVisibleUser(db, caller, workspaceId, userId);
}

/** A path a link shares, as the checks found it: what it is, and the path as stored. */
export interface SharedPath extends BundlePath {
  type: 'file' | 'directory';
}

/**
 * Whether `creator` may share each of `sites` (each named as the request wrote it, for the
 * answers) in a link of `permissions`, or throws. Each must be a file or folder below the root of
 * the link's Workspace that the creator can see (`not-found/bundle-path-not-found` otherwise, so
 * a hidden path answers as a missing one), on which the creator holds Share, and write too for a
 * link that takes uploads, which shares folders only. Decided by the engine from the creator's
 * grants as they are now.
 */
export async function assertMayShare(db: Db, creator: User, workspaceId: number, sites: readonly { site: SitePath; named: string }[], permissions: string): Promise<SharedPath[]> {
  const subject = await subjectOf(db, creator);
  const rootKey = workspaceId === 0 ? '' : workspaceRootKey(workspaceId);
  // Links whose visitors may upload need write on every path, besides Share.
  const uploads = (SHARE_LINK_PERMISSIONS as readonly string[]).includes(permissions) && shareLinkAcceptsUploads(permissions as ShareLinkPermissions);
  const shared: SharedPath[] = [];
  for (const { site, named } of sites) {
    if (site.workspaceId !== workspaceId) {
      throw errors.paramsInvalid({ paths: [`"${named.slice(0, 200)}" lies in Workspace ${site.workspaceId}: make the link there (select that Workspace)`] });
    }
    if (site.key === rootKey) throw errors.paramsInvalid({ paths: ['the root folder is not shared whole: share the folders and files in it'] });
    const entry = await findEntry(db, site.key);
    if (entry === undefined) throw errors.bundlePathNotFound(named);
    const access = await PathAccess.forPath(db, { subject, rootKey }, entry.pathKey);
    if (!(await access.visible(entry.pathKey, entry.type))) throw errors.bundlePathNotFound(named);
    const capabilities = access.capabilities(entry.pathKey, entry.type);
    const mayShare = capabilities.has('share');
    const mayWrite = capabilities.has('write');
    if (uploads && !mayWrite) throw errors.writeAndBundlePermissionRequired(named);
    if (!mayShare) throw errors.bundlePermissionRequired(named);
    if (uploads && entry.type !== 'directory') throw errors.modelSaveError({ paths: [`"${named.slice(0, 200)}" is a file: a link that takes uploads shares folders`] });
    shared.push({ path: entry.path, pathKey: entry.pathKey, recursive: entry.type === 'directory', type: entry.type });
  }
  return shared;
}

/** The user a link belongs to, as it is now (undefined once deleted). */
export async function creatorOf(db: Db, bundle: Bundle): Promise<User | undefined> {
  return bundle.userId === null ? undefined : findUserById(db, bundle.userId);
}
