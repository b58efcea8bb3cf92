import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/database.js';
import type { PageRequest } from '../http/pagination.js';
import { workspacesWithGrantsFor } from '../repositories/grant-workspaces.js';
import { groupIdsOfUser } from '../repositories/memberships.js';
import { listWorkspaces, type Workspace } from '../repositories/workspaces.js';

/**
 * GET /workspaces (contract 7): a Site Administrator sees every Workspace; anyone else the
 * Workspaces it belongs to, administers, or holds a grant in. A Custom Workspace context narrows
 * the list to that Workspace; the context never widens it. Returns up to `limit + 1` rows.
 */
export async function listVisibleWorkspaces(
  db: Db,
  caller: Caller,
  contextWorkspaceId: number,
  page: PageRequest<number>,
): Promise<Workspace[]> {
  const visible = caller.siteAdmin ? undefined : await workspacesVisibleTo(db, caller);
  let onlyIds = visible === undefined ? undefined : [...visible];
  if (contextWorkspaceId !== 0) onlyIds = (onlyIds ?? [contextWorkspaceId]).filter((id) => id === contextWorkspaceId);
  return listWorkspaces(db, { afterId: page.after ?? -1, limit: page.limit + 1, ...(onlyIds === undefined ? {} : { onlyIds }) });
}

async function workspacesVisibleTo(db: Db, caller: Caller): Promise<Set<number>> {
  const user = caller.user;
  if (user === null) return new Set();
  const withGrants = await workspacesWithGrantsFor(db, user.id, await groupIdsOfUser(db, user.id));
  // A Workspace administered through a root grant is among those with grants.
  withGrants.add(user.workspaceId);
  return withGrants;
}
