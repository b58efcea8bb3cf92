import { Readable } from 'node:stream';
import { childrenOutsideReach, holdsLock, mayRemoveLock } from '../access/index.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { davLocksBelow, deleteDavLock, findDavLock, type DavLock } from '../repositories/dav-locks.js';
import { fileEntryOf, type FileEntry } from './file-entry.js';
import { visibleEntry } from './file-lookup.js';
import { covers } from './lock-coverage.js';
import { locksStopping } from './lock-enforcement.js';
import { lockEntriesOf, type LockEntry } from './lock-entry.js';
import { locksAround, locksCovering, renewLock, takeLock } from './lock-store.js';
import { sitePathIn, type SessionScope } from './session-scope.js';
import { writeWholeFile } from './whole-upload.js';

// Write locks (WebDAV's RFC 4918 class 2, and the REST API's /locks) as one caller's session sees
// them: who may take, refresh, list and remove a lock, and which locks stop a WebDAV write given
// the tokens its If header submits. Every door's writes are also stopped by the file operations
// themselves (lock-enforcement.ts). Locks live in the database (lock-store.ts), so they hold on
// every worker and node.

/**
 * The longest a lock lasts without a refresh: an hour. A client that crashed holding a lock blocks
 * others at most this long (its holder or an administrator can remove it sooner); clients that keep
 * a file open refresh well before (Windows and Office every few minutes, Finder every 10).
 */
const MAX_LOCK_SECONDS = 3600;

export interface LockRequest {
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The client's owner element, to be shown back as given; null without one. */
  ownerXml: string | null;
  /** The seconds the client asks for; undefined (none asked, or Infinite) is the maximum. */
  timeoutSeconds: number | undefined;
}

/**
 * A lock taken (on an unmapped path, `created` an empty file), or the locks that stood in its way:
 * `onlyBelow` when none of them covers the requested path itself, only resources below it.
 */
export type LockOutcome = { lock: DavLock; created: boolean } | { lock: undefined; conflicts: DavLock[]; onlyBelow: boolean };

/** A lock as the REST API asks for one (Files.com's Lock.create). */
export interface RestLockRequest {
  exclusive: boolean;
  /** Depth infinity: it covers everything below a folder too. */
  recursive: boolean;
  /** The seconds asked for; undefined is the maximum. */
  timeoutSeconds: number | undefined;
  allowAccessByAnyUser: boolean;
}

export interface WriteTarget {
  /** Paths the write changes (a MOVE: its source and destination). */
  paths: readonly string[];
  /** The change reaches everything below `paths` too (DELETE, MOVE, COPY Depth infinity of a folder). */
  recursive: boolean;
  /**
   * Folders that gain or lose a member (the parent of a created, deleted or moved path): a lock on
   * the folder itself protects its membership (RFC 4918 7.5), even a depth-0 one; locks on its
   * other members are not concerned, whatever `recursive` says.
   */
  parents?: readonly string[];
}

export class ResourceLocks {
  constructor(private readonly scope: SessionScope) {}

  /**
   * Unexpired locks covering the resource at a path, whether or not the caller can see it: what an
   * If header's tokens are matched against, whose answer says only whether the condition holds.
   */
  async covering(path: string): Promise<DavLock[]> {
    return locksCovering(this.scope.deps.db, sitePathIn(this.scope, path).key, this.now());
  }

  /**
   * The locks covering each path at or below `path`, read in one query pair whatever their number;
   * a path is located only when some lock was found.
   */
  async around(path: string): Promise<(path: string) => DavLock[]> {
    const { locks } = await locksAround(this.scope.deps.db, sitePathIn(this.scope, path).key, this.now());
    if (locks.length === 0) return () => [];
    return (member) => {
      const memberKey = sitePathIn(this.scope, member).key;
      return locks.filter((lock) => covers(lock, memberKey));
    };
  }

  /**
   * The locks that stop the caller making a write, given the tokens its request submitted: every
   * locked resource the write changes needs one of the locks covering it submitted by the caller
   * holding it; of several shared locks, one is enough. Empty when nothing stops it.
   */
  async blocking(target: WriteTarget, submitted: ReadonlySet<string>): Promise<DavLock[]> {
    const checks = [
      ...target.paths.map((path) => ({ key: sitePathIn(this.scope, path).key, recursive: target.recursive })),
      ...(target.parents ?? []).map((path) => ({ key: sitePathIn(this.scope, path).key, recursive: false })),
    ];
    // A lock allowing access by any user stops nobody: no token is asked for it either.
    const passes = (lock: DavLock) => holdsLock(this.scope.caller, lock) && (lock.allowAccessByAnyUser || submitted.has(lock.token));
    return locksStopping(this.scope.deps.db, this.now(), checks, passes);
  }

  /**
   * The entry a LOCK of this path would lock, or undefined where there is none the caller can see
   * (a LOCK there makes an empty file, which the caller must be allowed to create). Locking needs
   * permission to write the resource: a lock stops the people who may write it.
   */
  async lockable(path: string): Promise<FileEntry | undefined> {
    let found;
    try {
      found = await visibleEntry(this.scope, sitePathIn(this.scope, path));
    } catch (error) {
      if (error instanceof AtriumError && error.family === 'not-found') return undefined;
      throw error;
    }
    const { entry, access } = found;
    const capabilities = access.capabilities(entry.pathKey, entry.type);
    if (!capabilities.has('write')) throw errors.writePermissionRequired('Locking needs permission to write the resource.');
    return fileEntryOf(this.scope, entry, capabilities, (await locksCovering(this.scope.deps.db, entry.pathKey, this.now())).length > 0);
  }

  /**
   * Takes a lock on a path for the caller (lock-store.ts refuses conflicts). On an unmapped path
   * the lock is taken first and an empty file made under it ("locked empty resource", RFC 4918
   * 7.3), so nobody else can lock the new file in between; if the file cannot be made, the lock
   * is removed again.
   */
  async take(path: string, request: LockRequest): Promise<LockOutcome> {
    const entry = await this.lockable(path);
    const site = sitePathIn(this.scope, path);
    const taken = await takeLock(this.scope.deps.db, this.now(), {
      site,
      collection: entry?.type === 'directory',
      depth: request.depth,
      scope: request.scope,
      ownerXml: request.ownerXml,
      userId: this.scope.caller.user?.id ?? null,
      allowAccessByAnyUser: false,
      timeoutSeconds: grantedSeconds(request.timeoutSeconds),
    });
    if (taken.lock === undefined) return { lock: undefined, conflicts: taken.conflicts, onlyBelow: !taken.conflicts.some((lock) => covers(lock, site.key)) };
    if (entry !== undefined) return { lock: taken.lock, created: false };
    try {
      await writeWholeFile(this.scope, site, Readable.from([]), { mkdirParents: false, declaredLength: 0 });
    } catch (error) {
      await deleteDavLock(this.scope.deps.db, taken.lock.token);
      throw error;
    }
    return { lock: taken.lock, created: true };
  }

  /**
   * Refreshes the lock among `tokens` that covers the path and that the caller holds: it lasts
   * `timeoutSeconds` more from now (at most MAX_LOCK_SECONDS). Undefined when there is none, or
   * when the caller can no longer see the path. Keeping a lock needs what taking one needs,
   * permission to write the resource: a holder whose grant was taken away must not go on
   * stopping the people who may still write it, an hour at a time.
   */
  async refresh(path: string, tokens: ReadonlySet<string>, timeoutSeconds: number | undefined): Promise<DavLock | undefined> {
    const { db } = this.scope.deps;
    const now = this.now();
    const found = (await locksCovering(db, sitePathIn(this.scope, path).key, now)).find((lock) => tokens.has(lock.token) && holdsLock(this.scope.caller, lock));
    if (found === undefined) return undefined;
    if ((await this.lockable(path)) === undefined) return undefined;
    return renewLock(db, now, found, grantedSeconds(timeoutSeconds));
  }

  /**
   * Removes the lock `token` names, if it covers the path: false when it names no unexpired lock
   * that does. Only its holder or an administrator may (access/lock-authority.ts).
   */
  async remove(path: string, token: string): Promise<boolean> {
    const { db } = this.scope.deps;
    const site = sitePathIn(this.scope, path);
    const found = await findDavLock(db, token, this.now());
    if (found === undefined || !covers(found, site.key)) return false;
    if (!(await mayRemoveLock(db, this.scope.caller, found))) throw errors.lockRemovalRestricted();
    // Of requests removing the same lock at once, one removes it; the others find it gone.
    return deleteDavLock(db, found.token);
  }

  /**
   * Takes a lock for the REST API (POST /locks/<path>) on an entry the caller may write; an
   * unmapped path is `not-found` (only WebDAV makes a locked empty file). Conflicts are refused as
   * WebDAV's are, `processing-failure/resource-locked`.
   */
  async create(path: string, request: RestLockRequest): Promise<LockEntry> {
    const entry = await this.lockable(path);
    if (entry === undefined) throw errors.fileNotFound();
    const taken = await takeLock(this.scope.deps.db, this.now(), {
      site: sitePathIn(this.scope, path),
      collection: entry.type === 'directory',
      depth: request.recursive ? 'infinity' : '0',
      scope: request.exclusive ? 'exclusive' : 'shared',
      ownerXml: null,
      userId: this.scope.caller.user?.id ?? null,
      allowAccessByAnyUser: request.allowAccessByAnyUser,
      timeoutSeconds: grantedSeconds(request.timeoutSeconds),
    });
    if (taken.lock === undefined) throw errors.lockConflict();
    const [shown] = await lockEntriesOf(this.scope.deps.db, this.scope, [taken.lock]);
    return shown as LockEntry;
  }

  /**
   * The unexpired locks covering a path the caller can see (GET /locks/<path>), and with
   * `includeChildren` those rooted below it on paths the caller can see too, oldest first.
   */
  async list(path: string, options: { includeChildren: boolean }): Promise<LockEntry[]> {
    const { db } = this.scope.deps;
    const now = this.now();
    const { entry, access } = await visibleEntry(this.scope, sitePathIn(this.scope, path));
    const near = await locksCovering(db, entry.pathKey, now);
    const below = options.includeChildren && entry.type === 'directory' ? await davLocksBelow(db, entry.pathKey, now) : [];
    const within = below.length === 0 ? access : await access.throughoutSubtree(entry.pathKey);
    // Below the root, never what the caller's credential cannot name (a confined key and `_`), as a listing.
    const unnamed = childrenOutsideReach(this.scope.caller, this.scope.requestWorkspaceId, entry.pathKey).map((name) => `${name.toLowerCase()}/`);
    const seen = [];
    for (const lock of below) {
      if (unnamed.some((prefix) => `${lock.pathKey}/`.startsWith(prefix))) continue;
      if (await within.visible(lock.pathKey, lock.collection ? 'directory' : 'file')) seen.push(lock);
    }
    const locks = [...near, ...seen].sort((a, b) => a.createdAt - b.createdAt || (a.token < b.token ? -1 : 1));
    return lockEntriesOf(db, this.scope, locks);
  }

  private now(): number {
    return this.scope.deps.clock.now();
  }
}

/** The seconds a lock is granted for the seconds asked: at least one, at most MAX_LOCK_SECONDS. */
function grantedSeconds(asked: number | undefined): number {
  return Math.max(1, Math.min(MAX_LOCK_SECONDS, asked ?? MAX_LOCK_SECONDS));
}
