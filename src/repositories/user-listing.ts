import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import type { Scope } from './scope.js';
import { toUser, type User, usernameKey } from './users.js';
import { equalsText } from '../db/text-equality.js';

export interface UserFilter {
  username?: string;
  workspaceId?: number;
  ids?: readonly number[];
  externalId?: string;
}

/**
 * Users in `scope` that the caller may see: all of them when `everyone` (administrators of the
 * scope), otherwise only `alsoIds` (the caller itself, members of groups it administers).
 * One page by id, `limit` rows after `afterId`.
 */
export async function listUsersInScope(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: UserFilter,
  page: { afterId: number; limit: number },
): Promise<readonly User[]> {
  if (!visibility.everyone && visibility.alsoIds.length === 0) return [];
  if (filter.ids !== undefined && filter.ids.length === 0) return [];
  // Cached until the data changes (db/read-cache.ts); the key holds every input of the query.
  const key = JSON.stringify([scope, visibility.everyone, visibility.everyone ? [] : visibility.alsoIds, filter, page]);
  return cachedRead(db, 'users-page', key, async () => Object.freeze((await loadUsersPage(db, scope, visibility, filter, page)).map((user) => Object.freeze(user))), {
    weigh: (users) => users.length,
    maxWeight: 20_000,
  });
}

async function loadUsersPage(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: UserFilter,
  page: { afterId: number; limit: number },
): Promise<User[]> {
  let query = db.selectFrom('users').selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit);
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (!visibility.everyone) query = query.where('id', 'in', visibility.alsoIds);
  if (filter.username !== undefined) query = query.where(equalsText('username_key', usernameKey(filter.username)));
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
  if (filter.externalId !== undefined) query = query.where(equalsText('external_id', filter.externalId));
  return (await query.execute()).map(toUser);
}
