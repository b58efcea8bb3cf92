import { parentKey, workspaceRootKey, type EntryType } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { joinPath, pathKey, workspaceRootPath } from '../lib/paths.js';
import { ensureDirectory, findEntries, insertDirectory, type Entry } from '../repositories/entries.js';
import { workspaceExists } from '../repositories/workspaces.js';
import { PathAccess, type SitePath } from '../access/index.js';
import { assertNotLocked } from './lock-enforcement.js';
import type { SessionScope } from './session-scope.js';

/** What creating an entry at a path takes, once the caller is known to be allowed. */
export interface CreationPlan {
  /** Display path of the new entry: existing folders keep their first spelling (contract 1.5). */
  path: string;
  key: string;
  /** What is at the path now: nothing, or a file the caller may overwrite. */
  existing: Entry | undefined;
  /** Folders to create first, shallowest first (display paths). */
  missingParents: string[];
  /** The Workspace root the path lies under, which must exist as a folder ('' for Workspace 0). */
  baseRootPath: string;
  /** Whether that root's folder was there when the plan was made (it nearly always is). */
  baseRootFound: boolean;
  /**
   * The caller's access on the path as the plan decided it: what the new entry's capabilities
   * are, without reading the grants again once the change is committed (it changes no grant).
   */
  access: PathAccess;
}

/**
 * Checks that the caller may create an entry of `type` at `site` and says how (contract 5.1, 6):
 * - creating needs `write` on the parent folder (or a grant on the path itself);
 * - missing parents are created only with `mkdirParents`, each needing `write` on its own parent;
 * - an existing file may be replaced only by a file, and only with `delete` on it (overwrite);
 *   anything else at the path is `processing-failure/destination-exists`.
 * - a lock the caller does not hold on the path, or on the folder gaining a member, stops it
 *   (lock-enforcement.ts).
 * Where the caller may see nothing the answer is `not-found`. One leak is unavoidable and accepted:
 * a caller allowed to write in a folder learns that a name it tries to take is already taken.
 *
 * Read-only: run it again inside the transaction that creates, so the decision holds at commit.
 */
export async function planCreation(db: Db, scope: SessionScope, site: SitePath, options: { type: EntryType; mkdirParents: boolean }): Promise<CreationPlan> {
  // A path in a Workspace that does not exist lies nowhere (the request's own Workspace always exists).
  if (site.workspaceId >= 1 && site.workspaceId !== scope.requestWorkspaceId && !(await workspaceExists(db, site.workspaceId))) {
    throw errors.fileNotFound();
  }
  const baseKey = site.workspaceId >= 1 ? workspaceRootKey(site.workspaceId) : '';
  const keySegments = site.key.split('/');
  const levelKeys = keySegments.map((_, i) => keySegments.slice(0, i + 1).join('/')).slice(depthOf(baseKey));
  const found = await findEntries(db, [baseKey, ...levelKeys].filter((key) => key !== ''));
  const access = await PathAccess.forPath(db, scope, site.key);
  const parents = await resolveParents(access, site, baseKey, found);
  const existing = found.get(site.key);

  const mayCreate = (key: string, type: EntryType) => access.can(parentKey(key) ?? '', 'directory', 'write') || access.can(key, type, 'write');
  if (parents.missing.length > 0 && !options.mkdirParents) {
    throw mayCreate(pathKey(parents.missing[0] as string), 'directory') ? errors.destinationParentDoesNotExist() : errors.fileNotFound();
  }
  const toCreate = [...parents.missing.map((path) => ({ key: pathKey(path), type: 'directory' as const })), ...(existing === undefined ? [{ key: site.key, type: options.type }] : [])];
  for (const [index, level] of toCreate.entries()) {
    if (mayCreate(level.key, level.type)) continue;
    // Below a folder this request creates itself, the caller knows the parent: say what is missing.
    if (index > 0) throw errors.writePermissionRequired();
    throw await refusalBelow(access, level.key, options.mkdirParents);
  }
  if (existing !== undefined) await assertMayReplace(access, existing, options, mayCreate(existing.pathKey, options.type));
  // A lock someone else holds stops the write: on the path itself, or on the folder that would gain a member.
  await assertNotLocked(db, scope, { keys: [site.key], recursive: false, parentsOf: toCreate.slice(0, 1).map((level) => level.key) });

  const pathSegments = site.path.split('/');
  const path = existing?.path ?? joinPath(parents.displayPath, pathSegments[pathSegments.length - 1] as string);
  return { path, key: site.key, existing, missingParents: parents.missing, baseRootPath: workspaceRootPath(site.workspaceId), baseRootFound: found.get(baseKey)?.type === 'directory', access };
}

/**
 * The folders between the Workspace root and the path: the display path of the deepest one (first
 * spellings kept, the request's spelling for missing ones) and those missing, shallowest first.
 * A file where a folder must be is `destination-parent-conflict` (or `not-found` unseen).
 */
async function resolveParents(access: PathAccess, site: SitePath, baseKey: string, found: Map<string, Entry>): Promise<{ displayPath: string; missing: string[] }> {
  const keySegments = site.key.split('/');
  const pathSegments = site.path.split('/');
  const missing: string[] = [];
  let displayPath = found.get(baseKey)?.path ?? workspaceRootPath(site.workspaceId);
  for (let i = depthOf(baseKey); i < keySegments.length - 1; i += 1) {
    const key = keySegments.slice(0, i + 1).join('/');
    const entry = found.get(key);
    if (entry === undefined) {
      displayPath = joinPath(displayPath, pathSegments[i] as string);
      missing.push(displayPath);
    } else if (entry.type === 'directory') {
      displayPath = entry.path;
    } else {
      throw (await access.visible(key, 'file')) ? errors.destinationParentConflict() : errors.fileNotFound();
    }
  }
  return { displayPath, missing };
}

/** Something exists at the path: only a file may be replaced, only by a file, and only with `delete`. */
async function assertMayReplace(access: PathAccess, existing: Entry, options: { type: EntryType; mkdirParents: boolean }, mayCreate: boolean): Promise<void> {
  const visible = await access.visible(existing.pathKey, existing.type);
  if (!visible && !mayCreate) throw await refusalBelow(access, existing.pathKey, options.mkdirParents);
  if (existing.type === 'directory' || options.type === 'directory') throw errors.destinationExists();
  if (!access.can(existing.pathKey, 'file', 'delete')) {
    throw visible ? errors.fullPermissionRequired('Full permission on the file is needed to overwrite it.') : errors.destinationExists();
  }
}

/**
 * No right to create at `key`: said plainly when its folder is visible, else `not-found`. With
 * `mkdirParents` a folder the caller cannot see is one it would have to create, as if it were
 * missing: the request then fails at the visible folder above, where the caller may not write,
 * so the answer is the one a missing folder gets and says nothing of what is there.
 */
async function refusalBelow(access: PathAccess, key: string, mkdirParents: boolean): Promise<Error> {
  if (mkdirParents) return errors.writePermissionRequired();
  return (await access.visible(parentKey(key) ?? '', 'directory')) ? errors.writePermissionRequired() : errors.fileNotFound();
}

function depthOf(key: string): number {
  return key === '' ? 0 : key.split('/').length;
}

/**
 * Creates the plan's missing parents (and the Workspace root, should its folder be missing). A
 * folder created meanwhile by another request is fine; a file created there meanwhile is not.
 * Answers the folders this call created (the Workspace root aside), for History. `createdById`:
 * the user the folders are made for (their creator), if any.
 */
export async function createMissingParents(db: Db, plan: CreationPlan, now: number, createdById: number | null = null): Promise<string[]> {
  // Made in the same transaction, the plan already read the root's folder: looked for again only
  // when it was missing (one query per level of `_/Workspaces/<id>` saved on every creation).
  if (plan.baseRootPath !== '' && !plan.baseRootFound) await ensureDirectory(db, plan.baseRootPath, now);
  const created: string[] = [];
  for (const path of plan.missingParents) {
    if (await insertDirectory(db, path, now, { userId: createdById, providedMtime: null })) {
      created.push(path);
      continue;
    }
    const taken = await findEntries(db, [pathKey(path)]);
    if (taken.get(pathKey(path))?.type !== 'directory') throw errors.destinationParentConflict();
  }
  return created;
}
