import { assertActsAtSiteLevel, workspacesVisibleTo, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import type { PageRequest } from '../lib/paging.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { refusingBrokenReferences } from '../repositories/constraint-errors.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { workspaceRootPath } from '../lib/paths.js';
import { countEntriesBelow, deleteEntry, ensureDirectory } from '../repositories/entries.js';
import {
  deleteWorkspaceRow, findWorkspace, insertWorkspace, listWorkspaces, renameWorkspace, workspaceContents, type Workspace,
} from '../repositories/workspaces.js';
import { workspaceEvent } from './directory-history.js';
import { checkText } from './user-fields.js';

/**
 * GET /workspaces (contract 7): a Site Administrator sees every Workspace; anyone else the
 * Workspaces it belongs to, administers, or holds a grant in. A Custom Workspace context narrows
 * the list to that Workspace; the context never widens it. A confined credential sees its home
 * only, Workspace 0 included (contract 4.3: it acts nowhere else). Returns up to `limit + 1` rows.
 */
export async function listVisibleWorkspaces(a: Call, page: PageRequest<number>): Promise<Workspace[]> {
  const { caller, requestWorkspaceId } = a;
  const visible = await workspacesVisibleTo(a.db, caller);
  let onlyIds = visible === undefined ? undefined : [...visible];
  if (requestWorkspaceId !== 0) onlyIds = (onlyIds ?? [requestWorkspaceId]).filter((id) => id === requestWorkspaceId);
  return listWorkspaces(a.db, { afterId: page.after ?? -1, limit: page.limit + 1, ...(onlyIds === undefined ? {} : { onlyIds }) });
}

/** GET /workspaces/<id>: as the list; anything else is `not-found/workspace-not-found`. */
export async function getVisibleWorkspace(a: Call, id: number): Promise<Workspace> {
  if (a.requestWorkspaceId !== 0 && id !== a.requestWorkspaceId) throw errors.workspaceNotFound();
  const workspace = await findWorkspace(a.db, id);
  if (workspace === undefined) throw errors.workspaceNotFound();
  const visible = await workspacesVisibleTo(a.db, a.caller);
  if (visible !== undefined && !visible.has(id)) throw errors.workspaceNotFound();
  return workspace;
}

/** POST /workspaces: a Site Administrator creates a Workspace and its root folder `_/Workspaces/N`. */
export async function createWorkspace(a: Call, name: string): Promise<Workspace> {
  assertActsAtSiteLevel(a.caller);
  const checked = checkWorkspaceName(name);
  return inTransaction(a.db, async (tx) => {
    const workspace = await insertWorkspace(tx, checked, a.now);
    await ensureDirectory(tx, workspaceRootPath(workspace.id), a.now);
    await recordHistory(tx, a, [workspaceEvent('workspace_create', workspace)]);
    return workspace;
  });
}

export async function renameVisibleWorkspace(a: Call, id: number, name: string | undefined): Promise<Workspace> {
  const workspace = await getVisibleWorkspace(a, id);
  assertActsAtSiteLevel(a.caller);
  if (name === undefined) return workspace;
  const checked = checkWorkspaceName(name);
  if (checked === workspace.name) return workspace;
  return inTransaction(a.db, async (tx) => {
    // Compared with the name as it is now: of identical renames at once, only the first renames.
    const before = await lockedWorkspace(tx, id);
    const renamed = { ...before, name: checked };
    if (checked === before.name) return before;
    await renameWorkspace(tx, id, checked);
    await recordHistory(tx, a, [workspaceEvent('workspace_update', renamed, before)]);
    return renamed;
  });
}

/**
 * DELETE /workspaces/<id>: only an empty Custom Workspace (no users, groups, keys, grants or
 * entries below its root) is deleted, with its root folder; anything else is refused rather than
 * deleting data as a side effect.
 */
export async function deleteEmptyWorkspace(a: Call, id: number): Promise<void> {
  const workspace = await getVisibleWorkspace(a, id);
  assertActsAtSiteLevel(a.caller);
  if (id === 0) throw errors.modelSaveError({ id: ['the Default Workspace cannot be deleted'] });
  await refusingBrokenReferences(() => inTransaction(a.db, async (tx) => {
    await lockedWorkspace(tx, id);
    const contents = await workspaceContents(tx, id);
    const entries = await countEntriesBelow(tx, workspaceRootPath(id));
    const blocking = Object.entries({ ...contents, entries }).filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
    if (blocking.length > 0) throw notEmpty(blocking.join(', '));
    await deleteEntry(tx, workspaceRootPath(id));
    await deleteWorkspaceRow(tx, id);
    await recordHistory(tx, a, [workspaceEvent('workspace_destroy', workspace)]);
  }), () => notEmpty('something was added to it meanwhile'));
}

/** The Workspace, locked until the transaction ends, or `workspace-not-found` when it was deleted meanwhile. */
async function lockedWorkspace(tx: Db, id: number): Promise<Workspace> {
  const found = await lockAndRead(tx, 'workspaces', id, findWorkspace);
  if (found === undefined) throw errors.workspaceNotFound();
  return found;
}

function notEmpty(what: string): Error {
  return errors.modelSaveError({ id: [`the Workspace is not empty: ${what}`] });
}

function checkWorkspaceName(raw: string): string {
  const name = checkText('name', raw);
  if (name === '') throw errors.modelSaveError({ name: ["can't be blank"] });
  return name;
}
