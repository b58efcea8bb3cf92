import { childKey, childNamesTowardGrants, childNameToward, decideChildren, type Capability, type EntryType } from '../authz/index.js';
import type { Db } from '../db/database.js';
import type { Entry } from '../repositories/entries.js';
import { errors } from '../errors/catalogue.js';
import { listChildren, positionFitsSort, sortValueOf, type ChildFilter, type ChildPosition, type ListingSort } from '../repositories/entry-listing.js';
import { childrenOutsideReach, grantsOnPathsFor, type PathAccess, type SitePath } from '../access/index.js';
import { visibleEntry } from './file-lookup.js';
import { childConditionsOf, EVERY_ENTRY, exactInDatabase, matchesEntry, type ListingMatch } from './listing-match.js';
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
  /** What the entries must be besides visible (a search, a name pattern, a type, a time); all when absent. */
  match?: ListingMatch;
}

/**
 * Rows a page may read and check in memory when the database cannot decide a match alone (a name
 * pattern with a `[...]` set, which it narrows to "any one character"). When they run out, the
 * page ends early with a cursor, so one request costs at most this much whatever the folder holds.
 */
export const MAX_CHECKED_PER_PAGE = 10_000;

/**
 * GET /folders/<path> (contract 6). The folder must be visible (else `not-found`); its listing is
 * - every entry, with `list` on it;
 * - its subfolders, with `write` alone;
 * - otherwise only the entries on the way to the caller's grants below it (the request
 *   Workspace's root always lists, possibly nothing).
 * Each entry's capabilities come from the engine's batch form, the same rule a single check uses,
 * so a listing and a check never disagree. A visible file lists as itself. Folders come first in
 * every sort; the order within each type is the sort's, ties broken by path (repositories/entry-listing.ts).
 * A match (search, filter, type, time) keeps the entries that meet it, in the same order.
 */
export async function listFolder(scope: SessionScope, site: SitePath, page: ListingPageRequest): Promise<VisibleListing> {
  const db = scope.deps.db;
  const match = page.match ?? EVERY_ENTRY;
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.type === 'file') {
    if (!matchesEntry(match, entry)) return { entries: [], next: undefined };
    return { entries: [{ entry, capabilities: [...access.capabilities(entry.pathKey, 'file')] }], next: undefined };
  }

  if (page.after !== undefined && !positionFitsSort(page.sort, page.after)) throw errors.invalidCursor();
  const filter = await childFilter(scope, access, site.key);
  const found = await matchingChildren(db, site.key, filter, match, page.sort, page.after, page.limit + 1, Math.max(MAX_CHECKED_PER_PAGE, page.limit + 1));
  const pageRows = found.rows.slice(0, page.limit);
  let next: ChildPosition | undefined;
  if (found.rows.length > page.limit) next = positionOf(page.sort, pageRows[pageRows.length - 1] as Entry);
  else if (!found.exhausted) next = found.lastChecked ?? page.after;
  return { entries: await withCapabilities(db, access, site.key, pageRows), next };
}

/** Where a page that ends with `entry` resumes, in this sort. */
function positionOf(sort: ListingSort, entry: Readonly<Entry>): ChildPosition {
  return { type: entry.type, value: sortValueOf(sort, entry), pathKey: entry.pathKey };
}

/** Which children the listing shows; never those the caller's credential cannot name (childrenOutsideReach). */
export async function childFilter(scope: SessionScope, access: PathAccess, folderKey: string): Promise<ChildFilter> {
  const except = childrenOutsideReach(scope.caller, scope.requestWorkspaceId, folderKey);
  const onFolder = access.capabilities(folderKey, 'directory');
  if (onFolder.has('list')) return { kind: 'all', except };
  if (onFolder.has('write')) return { kind: 'directories', except };
  const names = childNamesTowardGrants(access.viewer.subject, folderKey, await access.grantsBelow(folderKey));
  return { kind: 'keys', keys: [...names].map((name) => childKey(folderKey, name)).filter((key) => !except.includes(key)) };
}

/** Whether a listing with this filter shows the child `key` of type `type`. */
export function filterAdmits(filter: ChildFilter, key: string, type: EntryType): boolean {
  switch (filter.kind) {
    case 'all':
      return !filter.except.includes(key);
    case 'directories':
      return type === 'directory' && !filter.except.includes(key);
    case 'keys':
      return filter.keys.includes(key);
  }
}

/** The matching children found, and where the search of the folder stands. */
interface MatchingChildren {
  /** At most the number asked for, in the sort's order. */
  rows: Readonly<Entry>[];
  /** True when no matching child follows the last row read. */
  exhausted: boolean;
  /** The last child read and checked, when the budget ended the search before it was exhausted. */
  lastChecked: ChildPosition | undefined;
}

/**
 * Up to `wanted` visible children of a folder that meet the match, in the sort's order, after
 * `after`. The database applies the match inside the folder's index range; when it can only
 * narrow it (exactInDatabase), the rows it returns are checked here, a batch at a time, at most
 * `maxChecks` of them, reading on until enough match, the folder ends, or the checks run out.
 */
async function matchingChildren(
  db: Db,
  folderKey: string,
  filter: ChildFilter,
  match: ListingMatch,
  sort: ListingSort,
  after: ChildPosition | undefined,
  wanted: number,
  maxChecks: number,
): Promise<MatchingChildren> {
  const conditions = childConditionsOf(match);
  if (exactInDatabase(match)) {
    const rows = await listChildren(db, folderKey, filter, { after, limit: wanted, sort }, conditions);
    return { rows: [...rows], exhausted: rows.length < wanted, lastChecked: undefined };
  }
  const rows: Readonly<Entry>[] = [];
  let position = after;
  let checks = maxChecks;
  for (;;) {
    if (checks <= 0) return { rows, exhausted: false, lastChecked: position };
    // Read a little more than is missing: the database's narrowing lets through some that do not match.
    const asked = Math.min(checks, Math.max(wanted - rows.length, 64));
    const batch = await listChildren(db, folderKey, filter, { after: position, limit: asked, sort }, conditions);
    for (const row of batch) {
      checks -= 1;
      position = positionOf(sort, row);
      if (matchesEntry(match, row)) rows.push(row);
      if (rows.length === wanted) return { rows, exhausted: false, lastChecked: position };
    }
    if (batch.length < asked) return { rows, exhausted: true, lastChecked: undefined };
  }
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
