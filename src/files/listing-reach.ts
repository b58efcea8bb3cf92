import { isStrictAncestor, parentKey, type EntryType } from '../authz/index.js';
import type { PathAccess } from '../access/index.js';
import type { ChildFilter } from '../repositories/entry-listing.js';
import { childFilter, filterAdmits } from './folder-listing.js';
import type { SessionScope } from './session-scope.js';

/**
 * Whether an entry below a folder is one the caller could find by listing, folder after folder,
 * from that folder: each folder on the way, and the entry itself, is shown by its parent's
 * listing, with exactly the listing's rule (childFilter: everything with `list`, subfolders with
 * `write`, else only the way to the caller's grants; never what the credential cannot name).
 * A search across folders keeps only such entries, so it never shows what listing would not.
 *
 * Every decision is made in memory from the access given (one made by throughoutSubtree for the
 * folder, so the grants below it are loaded once), and each folder's filter is decided once.
 */
export class ListingReach {
  private readonly filters = new Map<string, Promise<ChildFilter>>();
  private readonly folders = new Map<string, Promise<boolean>>();

  constructor(
    private readonly scope: SessionScope,
    private readonly access: PathAccess,
    private readonly rootKey: string,
  ) {}

  /** Whether listing shows `key` (strictly below the root) by way of its parent, listed from the root. */
  async shows(key: string, type: EntryType): Promise<boolean> {
    if (!isStrictAncestor(this.rootKey, key)) return false;
    const parent = parentKey(key) ?? '';
    if (!(await this.folderListed(parent))) return false;
    return filterAdmits(await this.filterOf(parent), key, type);
  }

  /** Whether the folder `key` (the root or below it) is reached by listing from the root. */
  private folderListed(key: string): Promise<boolean> {
    if (key === this.rootKey) return Promise.resolve(true);
    let listed = this.folders.get(key);
    if (listed === undefined) {
      listed = this.shows(key, 'directory');
      this.folders.set(key, listed);
    }
    return listed;
  }

  private filterOf(folderKey: string): Promise<ChildFilter> {
    let filter = this.filters.get(folderKey);
    if (filter === undefined) {
      filter = childFilter(this.scope, this.access, folderKey);
      this.filters.set(folderKey, filter);
    }
    return filter;
  }
}
