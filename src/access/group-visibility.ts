import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findGroupById, type Group } from '../repositories/groups.js';
import { groupIdsOfUser } from '../repositories/memberships.js';
import { inScope, type Scope } from '../repositories/scope.js';
import { isAdministratorOf } from './authority.js';
import { listScope } from './list-scope.js';

export interface GroupVisibility {
  scope: Scope;
  /** Administrators of the context see every group in scope. */
  everyone: boolean;
  /** Everyone else sees the groups it belongs to. */
  alsoIds: number[];
}

export async function groupVisibility(db: Db, caller: Caller, requestWorkspaceId: number): Promise<GroupVisibility> {
  const scope = listScope(caller, requestWorkspaceId);
  if (await isAdministratorOf(db, caller, requestWorkspaceId)) return { scope, everyone: true, alsoIds: [] };
  const ownGroups = caller.user === null ? [] : await groupIdsOfUser(db, caller.user.id);
  return { scope, everyone: false, alsoIds: ownGroups };
}

/** The group when the caller may see it in this context, else `not-found/group-not-found`. */
export async function findVisibleGroup(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<Group> {
  const group = await findGroupById(db, id);
  if (group === undefined) throw errors.groupNotFound();
  const visibility = await groupVisibility(db, caller, requestWorkspaceId);
  if (!inScope(visibility.scope, group.workspaceId)) throw errors.groupNotFound();
  if (!visibility.everyone && !visibility.alsoIds.includes(group.id)) throw errors.groupNotFound();
  return group;
}
