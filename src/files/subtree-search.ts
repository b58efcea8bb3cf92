import type { SitePath } from '../access/index.js';
import type { Entry } from '../repositories/entries.js';
import { entriesBelow, indexedSearch, positionAfter, type NameConditions, type SubtreeOrderPosition } from '../repositories/entry-name-search.js';
import { visibleEntry } from './file-lookup.js';
import type { VisibleEntry } from './folder-listing.js';
import { ListingReach } from './listing-reach.js';
import { matchesEntry, type ListingMatch } from './listing-match.js';
import type { SessionScope } from './session-scope.js';

/** Where a search of a subtree stands between pages: the last entry it looked at (repositories/entry-name-search.ts). */
export type SubtreePosition = SubtreeOrderPosition;

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
 * Entries one page of a subtree search may look at: rows the database finds and the server then
 * checks against the listing rule, or, for a search too short for the name index, rows of the
 * subtree's order it reads. When they run out the page ends early, possibly empty, with a cursor:
 * a request's cost stays bounded however large the subtree and however little of it the caller
 * may list, and the client follows the cursor for the rest.
 */
export const MAX_LOOKED_AT_PER_PAGE = 10_000;

/** Rows of the subtree's order one read of a scan covers (a search without an indexed text). */
const SCAN_STEP = 2_500;

/**
 * `search_all`: the entries below a folder, at any depth, that meet the match and that the caller
 * could reach by listing folder after folder from it (ListingReach: the listing's own rule, so
 * nothing appears that listing would not show). A text of three characters or more is looked up
 * in the name indexes (migrations 028, 034 and 036); a shorter one, or none, reads the subtree in order and
 * checks each name.
 *
 * Order: by folder (by its path, compared by bytes), each folder's matches together, its folders
 * first, then its files, by name. The grants below the folder are read once
 * (PathAccess.throughoutSubtree), so every decision is made in memory.
 */
export async function searchSubtree(scope: SessionScope, site: SitePath, request: SubtreeSearchRequest): Promise<SubtreeSearchPage> {
  const { entry: root, access } = await visibleEntry(scope, site);
  if (root.type === 'file') {
    // A file's subtree is itself, as a file's listing is.
    if (!matchesEntry(request.match, root)) return { entries: [], next: undefined };
    return { entries: [{ entry: root, capabilities: [...access.capabilities(root.pathKey, 'file')] }], next: undefined };
  }
  const inSubtree = await access.throughoutSubtree(root.pathKey);
  const search = new SubtreePage(scope, new ListingReach(scope, inSubtree, root.pathKey), root.pathKey, request.match);
  const found = await search.collect(request.after, request.limit);
  // The access holds every grant of the caller's on, above and below the folder: each entry's
  // capabilities are the engine's decision on it, made in memory (a page's entries lie in many
  // folders, and a read per folder would cost more than the search).
  const entries = found.rows.map((entry) => ({ entry, capabilities: [...inSubtree.capabilities(entry.pathKey, entry.type)] }));
  return { entries, next: found.next };
}

/** One page's search: what it has found and what it may still look at. */
class SubtreePage {
  private budget = MAX_LOOKED_AT_PER_PAGE;
  private readonly conditions: NameConditions;

  constructor(
    private readonly scope: SessionScope,
    private readonly reach: ListingReach,
    private readonly rootKey: string,
    private readonly match: ListingMatch,
  ) {
    this.conditions = {
      contains: match.contains,
      nameLike: match.glob === undefined ? [] : [match.glob.compiled.like],
      type: match.type,
      modifiedAfter: match.modifiedAfter,
    };
  }

  /**
   * Up to `limit` entries after `start`, and where the next page starts (none when the subtree is
   * done). One more than the page is looked for, so that a last page ends without a cursor.
   */
  async collect(start: SubtreePosition | undefined, limit: number): Promise<{ rows: Readonly<Entry>[]; next: SubtreePosition | undefined }> {
    const rows: Readonly<Entry>[] = [];
    const wanted = limit + 1;
    const full = () => ({ rows: rows.slice(0, limit), next: positionOf(rows[limit - 1] as Entry) });
    const db = this.scope.deps.db;
    let position = start;
    const indexed = indexedSearch(this.conditions.contains);
    // Each query of the index looks the text up again: after the first batch, the next asks for
    // as many matches as the share of them the caller could see says the page still needs, so a
    // caller who may list little of the subtree needs two or three queries, not one per page size.
    let checked = 0;
    while (this.budget > 0) {
      // Through the name index, a batch of its matches; else a stretch of the subtree's order, its
      // end read first so that the database never reads further than the stretch.
      const until = indexed ? undefined : await positionAfter(db, this.rootKey, position, Math.min(this.budget, SCAN_STEP));
      const missing = wanted - rows.length;
      const share = checked === 0 ? 1 : Math.max(rows.length / checked, 0.02);
      const asked = indexed ? Math.min(this.budget, Math.max(64, Math.ceil((missing / share) * 1.25))) : missing;
      const batch = await entriesBelow(db, this.rootKey, { after: position, until, limit: asked, conditions: this.conditions, gather: checked > 0 });
      this.budget -= indexed ? batch.length : Math.min(this.budget, SCAN_STEP);
      for (const row of batch) {
        checked += 1;
        position = positionOf(row);
        if (matchesEntry(this.match, row) && (await this.reach.shows(row.pathKey, row.type))) rows.push(row);
        if (rows.length === wanted) return full();
      }
      if (batch.length < asked) {
        // Nothing more matches up to the stretch's end: on from there, or done.
        if (indexed || until === undefined) return { rows, next: undefined };
        position = until;
      }
    }
    return { rows, next: position };
  }
}

function positionOf(entry: Readonly<Entry>): SubtreePosition {
  return { parentKey: entry.parentKey, type: entry.type, pathKey: entry.pathKey };
}
