import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { errors } from '../errors/catalogue.js';
import { groupsAdministeredBy, membersOfGroups } from '../repositories/memberships.js';
import { findUserById, type User } from '../repositories/users.js';
import { inScope, type Scope } from '../repositories/scope.js';
import { isAdministratorOf } from './authority.js';
import { listScope } from './list-scope.js';
import { partnerUsersVisibleTo } from './partner-admin-authority.js';

export interface UserVisibility {
  scope: Scope;
  /** Administrators of the context see every user in scope. */
  everyone: boolean;
  /**
   * Everyone else: itself and the members of the groups it administers (contract 7); a Partner
   * Admin whose Partner lets it manage users, also the Partner's users (partner-admin-authority.ts).
   */
  alsoIds: readonly number[];
}

export async function userVisibility(db: Db, caller: Caller, requestWorkspaceId: number): Promise<UserVisibility> {
  const scope = listScope(caller, requestWorkspaceId);
  if (await isAdministratorOf(db, caller, requestWorkspaceId)) return { scope, everyone: true, alsoIds: [] };
  const self = caller.user;
  if (self === null) return { scope, everyone: false, alsoIds: [] };
  const ofPartner = await partnerUsersVisibleTo(db, caller, requestWorkspaceId);
  const own = await usersVisibleTo(db, self.id);
  return { scope, everyone: false, alsoIds: ofPartner.length === 0 ? own : [...new Set([...own, ...ofPartner])] };
}

/**
 * The users a non-administrator may see: itself and the members of the groups it administers.
 * Cached until the data changes (db/read-cache.ts), like every read on the way to a listing.
 */
function usersVisibleTo(db: Db, userId: number): Promise<readonly number[]> {
  return cachedRead(db, 'users-visible-to', String(userId), async () => {
    const members = await membersOfGroups(db, await groupsAdministeredBy(db, userId));
    return Object.freeze([...new Set([userId, ...members.map((m) => m.userId)])]);
  }, { weigh: (ids) => ids.length, maxWeight: 200_000 });
}

/**
 * The user `id` when the caller may see it in this context; otherwise `not-found/user-not-found`,
 * the same answer as for an id that does not exist, so no probe learns who exists elsewhere.
 */
export async function findVisibleUser(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<User> {
  const user = await findUserById(db, id);
  if (user === undefined) throw errors.userNotFound();
  const visibility = await userVisibility(db, caller, requestWorkspaceId);
  if (!inScope(visibility.scope, user.workspaceId)) throw errors.userNotFound();
  if (!visibility.everyone && !visibility.alsoIds.includes(user.id)) throw errors.userNotFound();
  return user;
}
