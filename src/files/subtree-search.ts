import { parentKey } from '../authz/index.js';
import type { PathAccess, SitePath } from '../access/index.js';
import type { Entry } from '../repositories/entries.js';
import { DEFAULT_LISTING_SORT, listChildren, NO_CONDITIONS, type ChildFilter, type ChildPosition } from '../repositories/entry-listing.js';
import { visibleEntry } from './file-lookup.js';
import { childFilter, filterAdmits, matchingChildren, MAX_CHECKED_PER_PAGE, positionOf, withCapabilities, type CheckBudget, type VisibleEntry } from './folder-listing.js';
import { matchesEntry, type ListingMatch } from './listing-match.js';
import type { SessionScope } from './session-scope.js';

/**
 * Where a search of a subtree stands between pages: inside a folder, after one of its children
 * (or at its start), or past a folder and everything below it.
 */
export type SubtreePosition =
  | { kind: 'in'; folderKey: string; after: ChildPosition | undefined }
  | { kind: 'past'; folderKey: string };

export interface SubtreeSearchRequest {
  match: ListingMatch;
  after: SubtreePosition | undefined;
  limit: number;
}

export interface SubtreeSearchPage {
  entries: VisibleEntry[];
  next: SubtreePosition | undefined;
}

/**
 * Folder reads one page of a subtree search may make: each reads one folder's matching entries (an
 * index range per type, as a plain listing's page does), or up to 64 of its subfolders to go on
 * to. When they run out the page ends early, possibly empty, with a cursor: the cost of a request
 * stays bounded however large the subtree, and the client follows the cursor for the rest.
 */
export const MAX_READS_PER_PAGE = 500;

/** Subfolders read at once when the walk moves from folder to folder. */
const SUBFOLDER_BATCH = 64;

/**
 * `search_all`: the entries below a folder, at any depth, that meet the match and that the caller
 * could reach by listing folder after folder from it: the walk lists each folder with exactly the
 * plain listing's rule (childFilter) and goes down only into the subfolders that listing shows, so
 * nothing appears that listing would not show, and no folder the caller cannot list is ever read.
 *
 * Order: the folders in depth-first order by name (a folder, then its subfolders, each with its
 * own), and in each folder its matching entries as its listing orders them by path (folders first,
 * then files). The grants below the folder are read once (PathAccess.throughoutSubtree), so every
 * decision on the way is made in memory.
 */
export async function searchSubtree(scope: SessionScope, site: SitePath, request: SubtreeSearchRequest): Promise<SubtreeSearchPage> {
  const { entry: root, access } = await visibleEntry(scope, site);
  if (root.type === 'file') {
    // A file's subtree is itself, as a file's listing is.
    if (!matchesEntry(request.match, root)) return { entries: [], next: undefined };
    return { entries: [{ entry: root, capabilities: [...access.capabilities(root.pathKey, 'file')] }], next: undefined };
  }
  const walk = new SubtreeWalk(scope, await access.throughoutSubtree(root.pathKey), root.pathKey, request.match);
  const start: SubtreePosition = request.after === undefined ? { kind: 'in', folderKey: root.pathKey, after: undefined } : await walk.resumedAt(request.after);
  const found = await walk.collect(start, request.limit);
  return { entries: await walk.withCapabilities(found.rows), next: found.next };
}

/**
 * One page's walk of a subtree: the folders' listing filters and subfolder batches it has read, and
 * what it has spent of the page's bounds (reads, and rows checked in memory).
 */
class SubtreeWalk {
  private readonly filters = new Map<string, Promise<ChildFilter>>();
  /** The last batch of each folder's subfolders read, to step from one to the next without a read each. */
  private readonly subfolders = new Map<string, { after: string | undefined; keys: string[]; complete: boolean }>();
  private reads = 0;
  private readonly budget: CheckBudget = { checks: MAX_CHECKED_PER_PAGE };

  constructor(
    private readonly scope: SessionScope,
    private readonly access: PathAccess,
    private readonly rootKey: string,
    private readonly match: ListingMatch,
  ) {}

  /**
   * Up to `limit` matching entries from `start` on, and where the next page starts (none when the
   * subtree is done). One more than the page is looked for, so that a last page ends without a cursor.
   */
  async collect(start: SubtreePosition, limit: number): Promise<{ rows: Readonly<Entry>[]; next: SubtreePosition | undefined }> {
    let position = start;
    const rows: Readonly<Entry>[] = [];
    for (;;) {
      if (position.kind === 'past' && position.folderKey === this.rootKey) return { rows, next: undefined };
      if (this.reads >= MAX_READS_PER_PAGE || this.budget.checks <= 0) return { rows, next: position };
      if (position.kind === 'past') {
        const sibling = await this.nextSubfolder(parentKey(position.folderKey) ?? '', position.folderKey);
        position = sibling === undefined ? { kind: 'past', folderKey: parentKey(position.folderKey) ?? '' } : { kind: 'in', folderKey: sibling, after: undefined };
        continue;
      }
      const folderKey = position.folderKey;
      this.reads += 1;
      const found = await matchingChildren(
        this.scope.deps.db, folderKey, await this.filterOf(folderKey), this.match, DEFAULT_LISTING_SORT, position.after, limit + 1 - rows.length, this.budget,
      );
      rows.push(...found.rows);
      if (rows.length > limit) {
        const last = rows[limit - 1] as Entry;
        return { rows: rows.slice(0, limit), next: { kind: 'in', folderKey: parentKey(last.pathKey) ?? '', after: positionOf(DEFAULT_LISTING_SORT, last) } };
      }
      if (!found.exhausted) return { rows, next: { kind: 'in', folderKey, after: found.lastChecked ?? position.after } };
      // This folder's own entries are done: its subfolders come next, then its next sibling.
      const first = await this.nextSubfolder(folderKey, undefined);
      position = first === undefined ? { kind: 'past', folderKey } : { kind: 'in', folderKey: first, after: undefined };
    }
  }

  /**
   * A position a client sent back, checked against the grants as they are now: if the folder it
   * names can no longer be reached by listing from the root, the walk goes on past the highest
   * folder on the way that the caller can no longer list into. A forged position thus shows
   * nothing that listing would not, and tells nothing about the folder it names.
   */
  async resumedAt(position: SubtreePosition): Promise<SubtreePosition> {
    const folderKey = position.folderKey;
    if (folderKey === this.rootKey) return position;
    const below = folderKey.slice(this.rootKey === '' ? 0 : this.rootKey.length + 1).split('/');
    let current = this.rootKey;
    for (const name of below) {
      const child = current === '' ? name : `${current}/${name}`;
      if (!filterAdmits(await this.filterOf(current), child, 'directory')) return { kind: 'past', folderKey: child };
      current = child;
    }
    return position;
  }

  /** Capabilities of the page's entries, folder by folder, as each folder's listing gives them. */
  async withCapabilities(rows: readonly Readonly<Entry>[]): Promise<VisibleEntry[]> {
    const visible: VisibleEntry[] = [];
    let start = 0;
    while (start < rows.length) {
      const folderKey = (rows[start] as Entry).parentKey;
      let end = start;
      while (end < rows.length && (rows[end] as Entry).parentKey === folderKey) end += 1;
      visible.push(...(await withCapabilities(this.scope.deps.db, this.access, folderKey, rows.slice(start, end))));
      start = end;
    }
    return visible;
  }

  private filterOf(folderKey: string): Promise<ChildFilter> {
    let filter = this.filters.get(folderKey);
    if (filter === undefined) {
      filter = childFilter(this.scope, this.access, folderKey);
      this.filters.set(folderKey, filter);
    }
    return filter;
  }

  /** The first subfolder of `folderKey` its listing shows after `after` (by name), if any. */
  private async nextSubfolder(folderKey: string, after: string | undefined): Promise<string | undefined> {
    const batch = this.subfolders.get(folderKey);
    if (batch !== undefined) {
      // Where `after` stands in the batch read last: at its start, at one of its keys, or unknown.
      const index = after === batch.after ? -1 : after === undefined ? undefined : batch.keys.indexOf(after);
      if (index !== undefined && (index >= 0 || after === batch.after)) {
        const next = batch.keys[index + 1];
        if (next !== undefined || batch.complete) return next;
      }
    }
    this.reads += 1;
    const rows = await listChildren(
      this.scope.deps.db,
      folderKey,
      await this.filterOf(folderKey),
      { after: after === undefined ? undefined : { type: 'directory', value: null, pathKey: after }, limit: SUBFOLDER_BATCH, sort: DEFAULT_LISTING_SORT },
      { ...NO_CONDITIONS, type: 'directory' },
    );
    const keys = rows.map((row) => row.pathKey);
    this.subfolders.set(folderKey, { after, keys, complete: keys.length < SUBFOLDER_BATCH });
    return keys[0];
  }
}
