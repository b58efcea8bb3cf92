import { childKey, childNamesTowardGrants, childNameToward, decideChildren, type Capability } from '../authz/index.js';
import type { Db } from '../db/database.js';
import type { Entry } from '../repositories/entries.js';
import { errors } from '../errors/catalogue.js';
import { listChildren, positionFitsSort, sortValueOf, type ChildFilter, type ChildPosition, type ListingSort } from '../repositories/entry-listing.js';
import { childrenOutsideReach, grantsOnPathsFor, type PathAccess, type SitePath } from '../access/index.js';
import { visibleEntry } from './file-lookup.js';
import type { SessionScope } from './session-scope.js';

/** An entry with the caller's capabilities on it. */
export interface VisibleEntry {
  entry: Entry;
  capabilities: readonly Capability[];
}

/** A page of a folder's visible entries, as stored. */
export interface VisibleListing {
  entries: VisibleEntry[];
  /** Where the next page starts, when there is one. */
  next: ChildPosition | undefined;
}

/** A page of a listing: its order, where it starts (after the previous page's last entry) and its size. */
export interface ListingPageRequest {
  sort: ListingSort;
  after: ChildPosition | undefined;
  limit: number;
}

/**
 * GET /folders/<path> (contract 6). The folder must be visible (else `not-found`); its listing is
 * - every entry, with `list` on it;
 * - its subfolders, with `write` alone;
 * - otherwise only the entries on the way to the caller's grants below it (the request
 *   Workspace's root always lists, possibly nothing).
 * Each entry's capabilities come from the engine's batch form, the same rule a single check uses,
 * so a listing and a check never disagree. A visible file lists as itself. Folders come first in
 * every sort; the order within each type is the sort's, ties broken by path (repositories/entry-listing.ts).
 */
export async function listFolder(scope: SessionScope, site: SitePath, page: ListingPageRequest): Promise<VisibleListing> {
  const db = scope.deps.db;
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.type === 'file') {
    return { entries: [{ entry, capabilities: [...access.capabilities(entry.pathKey, 'file')] }], next: undefined };
  }

  if (page.after !== undefined && !positionFitsSort(page.sort, page.after)) throw errors.invalidCursor();
  const filter = await childFilter(scope, access, site.key);
  const rows = await listChildren(db, site.key, filter, { after: page.after, limit: page.limit + 1, sort: page.sort });
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows[pageRows.length - 1];
  const next = rows.length > page.limit && last !== undefined ? { type: last.type, value: sortValueOf(page.sort, last), pathKey: last.pathKey } : undefined;
  return { entries: await withCapabilities(db, access, site.key, pageRows), next };
}

/** Which children the listing shows; never those the caller's credential cannot name (childrenOutsideReach). */
async function childFilter(scope: SessionScope, access: PathAccess, folderKey: string): Promise<ChildFilter> {
  const except = childrenOutsideReach(scope.caller, scope.requestWorkspaceId, folderKey);
  const onFolder = access.capabilities(folderKey, 'directory');
  if (onFolder.has('list')) return { kind: 'all', except };
  if (onFolder.has('write')) return { kind: 'directories', except };
  const names = childNamesTowardGrants(access.viewer.subject, folderKey, await access.grantsBelow(folderKey));
  return { kind: 'keys', keys: [...names].map((name) => childKey(folderKey, name)).filter((key) => !except.includes(key)) };
}

/**
 * The caller's capabilities on each listed child, in one pass of the engine over the grants on the
 * folder, its ancestors and the page's children (loaded by path, so bounded by the page size).
 */
async function withCapabilities(db: Db, access: PathAccess, folderKey: string, children: readonly Readonly<Entry>[]): Promise<VisibleEntry[]> {
  if (children.length === 0) return [];
  const subject = access.viewer.subject;
  const onChildren = await grantsOnPathsFor(db, subject, children.map((child) => child.pathKey));
  const grants = [...access.ancestorGrants, ...onChildren];
  const decided = decideChildren(
    subject,
    folderKey,
    children.map((child) => ({ name: childNameToward(folderKey, child.pathKey), type: child.type })),
    grants,
  );
  return children.map((entry, i) => ({ entry, capabilities: decided[i]?.capabilities ?? [] }));
}

