import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { containsText, startsWith } from './like-patterns.js';
import { cachedRead } from '../db/read-cache.js';
import { equalsText } from '../db/text-equality.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder, flagAsNumber } from './keyset-order.js';
import type { Scope } from './scope.js';
import { type TimeRange, withinTimeRange } from './time-range.js';
import { toUser, type User, userTextKey, usernameKey } from './users.js';

/** The fields a list of users can be sorted by. */
export type UserSortField = 'id' | 'username' | 'name' | 'email' | 'site_admin' | 'disabled' | 'last_login_at' | 'workspace_id' | 'company' | 'authenticate_until' | 'ssl_required';

export interface UserFilter {
  username?: string;
  workspaceId?: number;
  /** Users of this Partner. */
  partnerId?: number;
  ids?: readonly number[];
  externalId?: string;
  /** Equal without regard to case. */
  name?: string;
  email?: string;
  siteAdmin?: boolean;
  disabled?: boolean;
  /** Starts with, without regard to case. */
  usernamePrefix?: string;
  namePrefix?: string;
  emailPrefix?: string;
  /** Users who signed in within the range (never signed in: outside every range). */
  lastLoginAt?: TimeRange;
  /** Part of the username, the name or the email, without regard to case. */
  search?: string;
  /** Equal, or starting with, without regard to case. */
  company?: string;
  companyPrefix?: string;
  /** One of Files.com's values, as stored. */
  sslRequired?: string;
  /** Users whose end date is within the range (no end date: outside every range). */
  authenticateUntil?: TimeRange;
}

/** Where a user without an end date sorts by `authenticate_until`: after every date (the largest a Date holds). */
const NEVER_ENDS = 8_640_000_000_000_000;

/** What a user sorts by in each order; never null, so that both databases order alike. */
const SORTED_BY: Readonly<Record<UserSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  username: () => sql.ref('username_key'),
  name: () => sql.ref('name_key'),
  email: () => sql.ref('email_key'),
  site_admin: () => flagAsNumber('site_admin'),
  disabled: () => flagAsNumber('disabled'),
  // Never signed in sorts before any sign-in.
  last_login_at: () => sql`coalesce(last_login_at, -1)`,
  workspace_id: () => sql.ref('workspace_id'),
  company: () => sql.ref('company_key'),
  authenticate_until: () => sql`coalesce(authenticate_until, ${sql.lit(NEVER_ENDS)})`,
  ssl_required: () => sql.ref('ssl_required'),
};

/** The value `user` has in the order by `field`, as a cursor keeps it. */
export function userSortValue(user: User, field: UserSortField): string | number {
  switch (field) {
    case 'id': return user.id;
    case 'username': return usernameKey(user.username);
    case 'name': return userTextKey(user.name);
    case 'email': return userTextKey(user.email);
    case 'site_admin': return user.siteAdmin ? 1 : 0;
    case 'disabled': return user.disabled ? 1 : 0;
    case 'last_login_at': return user.lastLoginAt ?? -1;
    case 'workspace_id': return user.workspaceId;
    case 'company': return userTextKey(user.profile.company);
    case 'authenticate_until': return user.profile.authenticateUntil ?? NEVER_ENDS;
    case 'ssl_required': return user.profile.sslRequired;
  }
}

/**
 * Users in `scope` that the caller may see: all of them when `everyone` (administrators of the
 * scope), otherwise only `alsoIds` (the caller itself, members of groups it administers).
 * One page of up to `limit` rows in the requested order.
 */
export async function listUsersInScope(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: UserFilter,
  page: SortedPageRequest<UserSortField>,
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
  page: SortedPageRequest<UserSortField>,
): Promise<User[]> {
  const sortedBy = SORTED_BY[page.sort.field]();
  const direction = page.sort.direction;
  let query = db.selectFrom('users').selectAll().limit(page.limit);
  query = page.sort.field === 'id' ? query.orderBy('id', direction) : query.orderBy(sortedBy, direction).orderBy('id', direction);
  if (page.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('id'), direction, page.after));
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (!visibility.everyone) query = query.where('id', 'in', visibility.alsoIds);
  if (filter.username !== undefined) query = query.where(equalsText('username_key', usernameKey(filter.username)));
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
  if (filter.externalId !== undefined) query = query.where(equalsText('external_id', filter.externalId));
  if (filter.name !== undefined) query = query.where(equalsText('name_key', userTextKey(filter.name)));
  if (filter.email !== undefined) query = query.where(equalsText('email_key', userTextKey(filter.email)));
  if (filter.siteAdmin !== undefined) query = query.where('site_admin', '=', filter.siteAdmin);
  if (filter.disabled !== undefined) query = query.where('disabled', '=', filter.disabled);
  if (filter.usernamePrefix !== undefined) query = query.where(startsWith('username_key', usernameKey(filter.usernamePrefix)));
  if (filter.namePrefix !== undefined) query = query.where(startsWith('name_key', userTextKey(filter.namePrefix)));
  if (filter.emailPrefix !== undefined) query = query.where(startsWith('email_key', userTextKey(filter.emailPrefix)));
  if (filter.lastLoginAt !== undefined) query = query.where(withinTimeRange('last_login_at', filter.lastLoginAt));
  if (filter.company !== undefined) query = query.where(equalsText('company_key', userTextKey(filter.company)));
  if (filter.companyPrefix !== undefined) query = query.where(startsWith('company_key', userTextKey(filter.companyPrefix)));
  if (filter.sslRequired !== undefined) query = query.where(equalsText('ssl_required', filter.sslRequired));
  if (filter.authenticateUntil !== undefined) query = query.where(withinTimeRange('authenticate_until', filter.authenticateUntil));
  if (filter.search !== undefined) {
    const text = userTextKey(filter.search);
    query = query.where((eb) => eb.or([containsText('username_key', text), containsText('name_key', text), containsText('email_key', text)]));
  }
  return (await query.execute()).map(toUser);
}
