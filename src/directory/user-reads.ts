import { findVisibleUser, isAdministratorOf, userVisibility, type Call } from '../access/index.js';
import { groupIdsOfUsers, type UserGroupIds } from '../repositories/memberships.js';
import { asSortedPage, type IdPageRequest, type SortedPageRequest } from '../lib/sorted-page.js';
import { listUsersInScope, type UserFilter, type UserSortField } from '../repositories/user-listing.js';
import { type User } from '../repositories/users.js';

/**
 * GET /users: the users the caller may see in the request's Workspace; up to `limit` rows, by id
 * after `afterId` or in the order a sorted page asks for.
 */
export async function listUsers(a: Call, filter: UserFilter, page: IdPageRequest | SortedPageRequest<UserSortField>): Promise<readonly User[]> {
  const visibility = await userVisibility(a.db, a.caller, a.requestWorkspaceId);
  return listUsersInScope(a.db, visibility.scope, visibility, filter, asSortedPage(page));
}

/**
 * GET /users/<id>: the user when the caller may see it; otherwise `not-found/user-not-found`, the
 * same answer as for an id that does not exist.
 */
export function getUser(a: Call, id: number): Promise<User> {
  return findVisibleUser(a.db, a.caller, a.requestWorkspaceId, id);
}

/**
 * The groups each user belongs to and administers, as a user is shown with them. Only for users
 * the caller was just given (listed, shown, created or updated): it checks nothing itself.
 */
export function userGroupIds(a: Call, userIds: readonly number[]): Promise<ReadonlyMap<number, UserGroupIds>> {
  return groupIdsOfUsers(a.db, userIds);
}

/**
 * Of these users, those whose `notes` the caller may read: the notes are the administrators' own
 * (docs/workspaces-users-groups.md), so only an administrator of the user's Workspace sees them.
 */
export async function usersWithVisibleNotes(a: Call, users: readonly User[]): Promise<ReadonlySet<number>> {
  const administers = new Map<number, boolean>();
  for (const workspaceId of new Set(users.map((u) => u.workspaceId))) administers.set(workspaceId, await isAdministratorOf(a.db, a.caller, workspaceId));
  return new Set(users.filter((u) => administers.get(u.workspaceId) === true).map((u) => u.id));
}
