import { decide, grantMatches, hasGrantBelow, inExtent, isStrictAncestor, parentKey, type Capability, type EntryType, type Grant, type Subject } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { grantsBelowThatCanMatch } from '../repositories/grants/index.js';
import { grantHolderOf, grantsOverPath } from './path-grants.js';

/** Who looks at paths, as far as access needs to know: the engine's subject and the root of its Workspace. */
export interface PathViewer {
  readonly subject: Subject;
  /** Key of the request Workspace's root: '' in Workspace 0, `_/workspaces/N` in Workspace N. */
  readonly rootKey: string;
}

/**
 * The engine's answers for one path and its ancestors, from the viewer's grants on them, loaded
 * once per request. Every capability a file operation checks comes from `decide`; visibility adds
 * the grants below a path, loaded only when the rule needs them.
 */
export class PathAccess {
  private readonly below = new Map<string, Promise<readonly Grant[]>>();

  private constructor(
    private readonly db: Db,
    readonly viewer: PathViewer,
    /**
     * Grants on the deepest path asked about and on every ancestor of it; for an access made by
     * throughoutSubtree, also every grant below that path.
     */
    readonly ancestorGrants: readonly Grant[],
    /** The folder whose grants below are all in ancestorGrants (throughoutSubtree), if any. */
    private readonly subtree?: { key: string; below: readonly Grant[] },
  ) {}

  /** Ready to answer about `key` and any of its ancestors. */
  static async forPath(db: Db, viewer: PathViewer, key: string): Promise<PathAccess> {
    return new PathAccess(db, viewer, await grantsOverPath(db, viewer.subject, key));
  }

  /**
   * The same viewer's access, ready to answer about `key` (this access's path or one of its
   * ancestors), its ancestors and everything below it: the viewer's grants below `key` are read
   * once and join the others, so every folder of the subtree is decided, and its visibility
   * answered, without another read (a search of a whole subtree). The engine ignores grants that
   * do not lie on a path's way, so having more of them changes no answer.
   */
  async throughoutSubtree(key: string): Promise<PathAccess> {
    const below = await this.grantsBelow(key);
    return new PathAccess(this.db, this.viewer, [...this.ancestorGrants, ...below], { key, below });
  }

  /** The viewer's capabilities on `key` (the loaded path or one of its ancestors). */
  capabilities(key: string, type: EntryType): ReadonlySet<Capability> {
    return new Set(decide(this.viewer.subject, { pathKey: key, type }, this.ancestorGrants).capabilities);
  }

  can(key: string, type: EntryType, capability: Capability): boolean {
    return this.capabilities(key, type).has(capability);
  }

  /**
   * Whether the viewer may see that `key` exists (contract 6): the context root always; anything
   * else when its folder's listing would show it, that is with `list` on the folder, with `write`
   * on the folder for a subfolder, or when it lies on the way to a grant of the viewer's (a grant
   * on it or below it). What is not visible is answered `not-found`, never `not-authorized`.
   */
  async visible(key: string, type: EntryType): Promise<boolean> {
    const extent = this.viewer.subject.extent;
    // Through a share link: only the link's paths, and of them only what its creator sees now.
    if (extent !== undefined) return inExtent(extent, { pathKey: key, type }) && this.creatorsAccess().visible(key, type);
    if (key === this.viewer.rootKey) return true;
    const parent = parentKey(key);
    if (parent === null) return false;
    const onParent = this.capabilities(parent, 'directory');
    if (onParent.has('list') || (type === 'directory' && onParent.has('write'))) return true;
    return this.hasGrantAtOrBelow(key);
  }

  /** The same grants seen by the link's creator itself: what a share link's reach is bounded by. */
  private creatorsAccess(): PathAccess {
    const { extent: _link, ...creator } = this.viewer.subject;
    return new PathAccess(this.db, { ...this.viewer, subject: creator }, this.ancestorGrants, this.subtree);
  }

  /** The viewer's grants strictly below `key` that can match it (the engine decides which do). */
  grantsBelow(key: string): Promise<readonly Grant[]> {
    let loaded = this.below.get(key);
    if (loaded === undefined) {
      const subject = this.viewer.subject;
      const subtree = this.subtree;
      if (subject.siteAdmin) loaded = Promise.resolve([]);
      else if (subtree !== undefined && (key === subtree.key || isStrictAncestor(subtree.key, key))) {
        loaded = Promise.resolve(subtree.below.filter((grant) => isStrictAncestor(key, grant.pathKey)));
      } else loaded = grantsBelowThatCanMatch(this.db, grantHolderOf(subject), key);
      this.below.set(key, loaded);
    }
    return loaded;
  }

  private async hasGrantAtOrBelow(key: string): Promise<boolean> {
    const subject = this.viewer.subject;
    if (this.ancestorGrants.some((grant) => grant.pathKey === key && grantMatches(subject, grant))) return true;
    return hasGrantBelow(subject, key, await this.grantsBelow(key));
  }
}

/** The listing's `permissions` letters (contract 6): `l r w d` for list, read, write, delete. */
export function permissionLetters(capabilities: Iterable<Capability>): string {
  const held = new Set(capabilities);
  return (['list', 'read', 'write', 'delete'] as const)
    .filter((capability) => held.has(capability))
    .map((capability) => capability.charAt(0))
    .join('');
}

