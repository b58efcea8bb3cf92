import { parentKey, workspaceRootKey, type EntryType } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { joinPath, pathKey, workspaceRootPath } from '../lib/paths.js';
import { ensureDirectory, findEntries, insertDirectory, type Entry } from '../repositories/entries.js';
import { workspaceExists } from '../repositories/workspaces.js';
import type { SitePath } from './context-paths.js';
import type { FileActor } from './file-actor.js';
import { PathAccess } from './path-access.js';

/** What creating an entry at a path takes, once the actor is known to be allowed. */
export interface CreationPlan {
  /** Display path of the new entry: existing folders keep their first spelling (contract 1.5). */
  path: string;
  key: string;
  /** What is at the path now: nothing, or a file the actor may overwrite. */
  existing: Entry | undefined;
  /** Folders to create first, shallowest first (display paths). */
  missingParents: string[];
  /** The Workspace root the path lies under, which must exist as a folder ('' for Workspace 0). */
  baseRootPath: string;
}

/**
 * Checks that the actor may create an entry of `type` at `site` and says how (contract 5.1, 6):
 * - creating needs `write` on the parent folder (or a grant on the path itself);
 * - missing parents are created only with `mkdirParents`, each needing `write` on its own parent;
 * - an existing file may be replaced only by a file, and only with `delete` on it (overwrite);
 *   anything else at the path is `processing-failure/destination-exists`.
 * Where the actor may see nothing the answer is `not-found`. One leak is unavoidable and accepted:
 * a caller allowed to write in a folder learns that a name it tries to take is already taken.
 *
 * Read-only: run it again inside the transaction that creates, so the decision holds at commit.
 */
export async function planCreation(db: Db, actor: FileActor, site: SitePath, options: { type: EntryType; mkdirParents: boolean }): Promise<CreationPlan> {
  const baseKey = site.workspaceId >= 1 ? workspaceRootKey(site.workspaceId) : '';
  const baseRootPath = workspaceRootPath(site.workspaceId);
  // A path in a Workspace that does not exist lies nowhere (the context's own Workspace always exists).
  if (site.workspaceId >= 1 && site.workspaceId !== actor.contextWorkspaceId && !(await workspaceExists(db, site.workspaceId))) {
    throw errors.fileNotFound();
  }
  const keySegments = site.key.split('/');
  const pathSegments = site.path.split('/');
  const baseDepth = baseKey === '' ? 0 : baseKey.split('/').length;
  const levelKeys = keySegments.map((_, i) => keySegments.slice(0, i + 1).join('/')).slice(baseDepth);
  const found = await findEntries(db, [baseKey, ...levelKeys].filter((key) => key !== ''));
  const access = await PathAccess.forPath(db, actor, site.key);

  const missingParents: string[] = [];
  let displayPrefix = found.get(baseKey)?.path ?? baseRootPath;
  for (let i = baseDepth; i < keySegments.length - 1; i += 1) {
    const key = keySegments.slice(0, i + 1).join('/');
    const entry = found.get(key);
    if (entry === undefined) {
      displayPrefix = joinPath(displayPrefix, pathSegments[i] as string);
      missingParents.push(displayPrefix);
    } else if (entry.type === 'directory') {
      displayPrefix = entry.path;
    } else {
      throw (await access.visible(key, 'file')) ? errors.destinationParentConflict() : errors.fileNotFound();
    }
  }

  const existing = found.get(site.key);
  const toCreate = [...missingParents.map((path) => ({ key: pathKey(path), type: 'directory' as const })), ...(existing === undefined ? [{ key: site.key, type: options.type }] : [])];
  const mayCreate = (key: string, type: EntryType) => {
    const parent = parentKey(key) ?? '';
    return access.can(parent, 'directory', 'write') || access.can(key, type, 'write');
  };

  if (missingParents.length > 0 && !options.mkdirParents) {
    throw mayCreate(pathKey(missingParents[0] as string), 'directory') ? errors.destinationParentDoesNotExist() : errors.fileNotFound();
  }
  for (const [index, level] of toCreate.entries()) {
    if (mayCreate(level.key, level.type)) continue;
    // Below a folder this request creates itself, the actor knows the parent: say what is missing.
    if (index > 0) throw errors.writePermissionRequired();
    throw (await access.visible(parentKey(level.key) ?? '', 'directory')) ? errors.writePermissionRequired() : errors.fileNotFound();
  }

  if (existing !== undefined) {
    const visible = await access.visible(existing.pathKey, existing.type);
    if (!visible && !mayCreate(existing.pathKey, options.type)) {
      throw (await access.visible(parentKey(existing.pathKey) ?? '', 'directory')) ? errors.writePermissionRequired() : errors.fileNotFound();
    }
    if (existing.type === 'directory' || options.type === 'directory') throw errors.destinationExists();
    if (!access.can(existing.pathKey, 'file', 'delete')) {
      throw visible ? errors.fullPermissionRequired('Full permission on the file is needed to overwrite it.') : errors.destinationExists();
    }
  }

  const path = existing?.path ?? joinPath(displayPrefix, pathSegments[pathSegments.length - 1] as string);
  return { path, key: site.key, existing, missingParents, baseRootPath };
}

/**
 * Creates the plan's missing parents (and the Workspace root, should its folder be missing). A
 * folder created meanwhile by another request is fine; a file created there meanwhile is not.
 */
export async function createMissingParents(db: Db, plan: CreationPlan, now: number): Promise<void> {
  if (plan.baseRootPath !== '') await ensureDirectory(db, plan.baseRootPath, now);
  for (const path of plan.missingParents) {
    if (await insertDirectory(db, path, now)) continue;
    const taken = await findEntries(db, [pathKey(path)]);
    if (taken.get(pathKey(path))?.type !== 'directory') throw errors.destinationParentConflict();
  }
}
