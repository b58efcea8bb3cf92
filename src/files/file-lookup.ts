import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findEntry, type Entry } from '../repositories/entries.js';
import type { SitePath } from '../access/index.js';
import type { FileActor } from './file-actor.js';
import { PathAccess } from '../access/index.js';

export interface VisibleEntryAccess {
  entry: Entry;
  access: PathAccess;
}

/**
 * The entry at `site` with the actor's access to it, or `not-found/file-not-found` when there is
 * none or the actor may not see it: the same answer either way, so existence cannot be probed.
 * The context root always exists for its context (the site root has no row of its own).
 */
export async function visibleEntry(db: Db, actor: FileActor, site: SitePath): Promise<VisibleEntryAccess> {
  const stored = site.key === '' ? undefined : await findEntry(db, site.key);
  const entry = stored ?? (site.key === actor.rootKey ? rootEntry(site) : undefined);
  if (entry === undefined) throw errors.fileNotFound();
  const access = await PathAccess.forPath(db, actor, entry.pathKey);
  if (!(await access.visible(entry.pathKey, entry.type))) throw errors.fileNotFound();
  return { entry, access };
}

function rootEntry(site: SitePath): Entry {
  return { id: 0, path: site.path, pathKey: site.key, parentKey: '', type: 'directory', size: null, storageKey: null, sha256: null, createdAt: 0, mtime: 0 };
}
