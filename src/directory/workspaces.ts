import type { Call, Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import type { PageRequest } from '../lib/paging.js';
import { grantWorkspacesFor } from '../repositories/grants/index.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { workspaceRootPath } from '../lib/paths.js';
import { countEntriesBelow, deleteEntry, ensureDirectory } from '../repositories/entries.js';
import {
  deleteWorkspaceRow, findWorkspace, insertWorkspace, listWorkspaces, renameWorkspace, workspaceContents, type Workspace,
} from '../repositories/workspaces.js';
import { assertActsAtSiteLevel, granteeSetOf, isConfined, reachesWorkspace, subjectOf } from '../access/index.js';
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
  const visible = caller.siteAdmin ? undefined : await workspacesVisibleTo(a.db, caller);
  let onlyIds = visible === undefined ? undefined : [...visible];
  if (requestWorkspaceId !== 0) onlyIds = (onlyIds ?? [requestWorkspaceId]).filter((id) => id === requestWorkspaceId);
  if (isConfined(caller)) onlyIds = (onlyIds ?? [caller.homeWorkspaceId]).filter((id) => id === caller.homeWorkspaceId);
  return listWorkspaces(a.db, { afterId: page.after ?? -1, limit: page.limit + 1, ...(onlyIds === undefined ? {} : { onlyIds }) });
}

async function workspacesVisibleTo(db: Db, caller: Caller): Promise<Set<number>> {
  const user = caller.user;
  if (user === null) return new Set();
  const visible = await grantWorkspacesFor(db, await granteeSetOf(db, await subjectOf(db, user)));
  // A Workspace administered through a root grant is among those with grants.
  visible.add(user.workspaceId);
  return visible;
}

/** GET /workspaces/<id>: as the list; anything else is `not-found/workspace-not-found`. */
export async function getVisibleWorkspace(a: Call, id: number): Promise<Workspace> {
  if ((a.requestWorkspaceId !== 0 && id !== a.requestWorkspaceId) || !reachesWorkspace(a.caller, id)) throw errors.workspaceNotFound();
  const workspace = await findWorkspace(a.db, id);
  if (workspace === undefined) throw errors.workspaceNotFound();
  if (!a.caller.siteAdmin && !(await workspacesVisibleTo(a.db, a.caller)).has(id)) throw errors.workspaceNotFound();
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
  const renamed = { ...workspace, name: checked };
  await inTransaction(a.db, async (tx) => {
    await renameWorkspace(tx, id, checked);
    if (checked !== workspace.name) await recordHistory(tx, a, [workspaceEvent('workspace_update', renamed, workspace)]);
  });
  return renamed;
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
  await inTransaction(a.db, async (tx) => {
    const contents = await workspaceContents(tx, id);
    const entries = await countEntriesBelow(tx, workspaceRootPath(id));
    const blocking = Object.entries({ ...contents, entries }).filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
    if (blocking.length > 0) throw errors.modelSaveError({ id: [`the Workspace is not empty: ${blocking.join(', ')}`] });
    await deleteEntry(tx, workspaceRootPath(id));
    await deleteWorkspaceRow(tx, id);
    await recordHistory(tx, a, [workspaceEvent('workspace_destroy', workspace)]);
  });
}

function checkWorkspaceName(raw: string): string {
  const name = checkText('name', raw);
  if (name === '') throw errors.modelSaveError({ name: ["can't be blank"] });
  return name;
}
