import { errors } from '../errors/catalogue.js';
import { findEntry, type Entry } from '../repositories/entries.js';
import { PathAccess, type SitePath } from '../access/index.js';
import type { SessionScope } from './session-scope.js';

export interface VisibleEntryAccess {
  entry: Entry;
  access: PathAccess;
}

/**
 * The entry at `site` with the caller's access to it, or `not-found/file-not-found` when there is
 * none or the caller may not see it: the same answer either way, so existence cannot be probed.
 * The request Workspace's root always exists for it (the site root has no row of its own).
 */
export async function visibleEntry(scope: SessionScope, site: SitePath): Promise<VisibleEntryAccess> {
  const db = scope.deps.db;
  const stored = site.key === '' ? undefined : await findEntry(db, site.key);
  const entry = stored ?? (site.key === scope.rootKey ? rootEntry(site) : undefined);
  if (entry === undefined) throw errors.fileNotFound();
  const access = await PathAccess.forPath(db, scope, entry.pathKey);
  if (!(await access.visible(entry.pathKey, entry.type))) throw errors.fileNotFound();
  return { entry, access };
}

function rootEntry(site: SitePath): Entry {
  return { id: 0, path: site.path, pathKey: site.key, parentKey: '', type: 'directory', size: null, storageKey: null, sha256: null, md5: null, sha1: null, crc32: null, createdAt: 0, mtime: 0, providedMtime: null, createdById: null, lastModifiedById: null };
}
