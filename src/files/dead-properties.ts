import type { SitePath } from '../access/index.js';
import { PathAccess } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import {
  deadPropertySizes, findDeadProperties, findDeadPropertiesInFolder, removeDeadProperty, setDeadProperty, type DeadProperty, type KeyedDeadProperty,
} from '../repositories/dav-properties.js';
import { findEntry, lockEntryAt } from '../repositories/entries.js';
import { changesOverLimit } from './dead-property-limits.js';
import { setEntryProvidedMtime } from '../repositories/entry-times.js';
import { visibleEntry } from './file-lookup.js';
import { assertClientTime } from './modified-time.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';

/** A change of a dead property: set (`value` given) or removed. Applied in order, all or none. */
export interface PropertyChange {
  namespace: string;
  name: string;
  value?: string | undefined;
}

/** What became of a change of dead properties: stored whole, or refused whole for the changes past a cap. */
export type PropertyChangeOutcome = { stored: true } | { stored: false; overLimit: readonly PropertyChange[] };

/**
 * The dead properties (WebDAV PROPPATCH's client-set properties) of entries the session has
 * answered, by path key. Entries without any cost one query for all; only those with properties
 * have their visibility checked, so a caller never gets the properties of something it cannot see.
 */
export async function readDeadProperties(scope: SessionScope, sites: readonly SitePath[]): Promise<Map<string, DeadProperty[]>> {
  return visibleOnly(scope, await findDeadProperties(scope.deps.db, [...new Set(sites.map((site) => site.key))]));
}

/** readDeadProperties of a folder and all its members, read in one query (a PROPFIND Depth 1). */
export async function readDeadPropertiesInFolder(scope: SessionScope, folder: SitePath): Promise<Map<string, DeadProperty[]>> {
  return visibleOnly(scope, await findDeadPropertiesInFolder(scope.deps.db, folder.key));
}

async function visibleOnly(scope: SessionScope, rows: readonly KeyedDeadProperty[]): Promise<Map<string, DeadProperty[]>> {
  const byKey = new Map<string, DeadProperty[]>();
  for (const row of rows) {
    const list = byKey.get(row.pathKey) ?? [];
    list.push({ namespace: row.namespace, name: row.name, value: row.value });
    byKey.set(row.pathKey, list);
  }
  for (const key of [...byKey.keys()]) {
    const entry = await findEntry(scope.deps.db, key);
    const access = await PathAccess.forPath(scope.deps.db, scope, key);
    if (entry === undefined || !(await access.visible(key, entry.type))) byKey.delete(key);
  }
  return byKey;
}

/**
 * Changes dead properties of one entry, all or none (RFC 4918 9.2), in one transaction. Needs
 * `write` on the entry, as changing its contents does; an invisible entry is `not-found`. The
 * site root has no row to keep properties on: it cannot be changed. A request past the caps of
 * dead-property-limits.ts changes nothing and answers the changes that are over them.
 * `providedMtime` (WebDAV's getlastmodified or Win32LastModifiedTime) is kept in the same
 * change as the entry's `provided_mtime`, as PATCH /files/<path> keeps it (modified-time.ts):
 * the same rights and times, the folders of Workspaces refused.
 */
export async function changeDeadProperties(
  scope: SessionScope, site: SitePath, changes: readonly PropertyChange[], options: { providedMtime?: number | undefined } = {},
): Promise<PropertyChangeOutcome> {
  const { providedMtime } = options;
  if (providedMtime !== undefined) assertChangeablePath(scope, site);
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.id === 0) throw errors.invalidPath('The root folder cannot be changed.');
  if (!access.can(entry.pathKey, entry.type, 'write')) throw errors.writePermissionRequired();
  if (providedMtime !== undefined) assertClientTime(providedMtime, 'provided_mtime');
  return scope.deps.db.transaction().execute(async (tx) => {
    // The entry locked until the commit (as a move locks it): its properties read below are still
    // so when they are written, and it cannot be deleted in between. Deleted before: not found.
    await lockEntryAt(tx, entry.pathKey);
    if ((await findEntry(tx, entry.pathKey))?.id !== entry.id) throw errors.fileNotFound();
    const overLimit = changesOverLimit(await deadPropertySizes(tx, entry.id), changes);
    if (overLimit.length > 0) return { stored: false, overLimit };
    for (const change of changes) {
      if (change.value === undefined) await removeDeadProperty(tx, entry.id, change.namespace, change.name);
      else await setDeadProperty(tx, entry.id, { namespace: change.namespace, name: change.name, value: change.value });
    }
    if (providedMtime !== undefined) await setEntryProvidedMtime(tx, entry.id, providedMtime);
    return { stored: true };
  });
}
