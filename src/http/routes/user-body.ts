import { Type } from 'typebox';
import type { User, UserGroupIds } from '../../directory/index.js';
import { errors } from '../../errors/catalogue.js';
import { isoTime } from '../../lib/time.js';

export const UserBody = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  email: Type.String(),
  workspace_id: Type.Integer(),
  site_admin: Type.Boolean(),
  workspace_admin: Type.Boolean(),
  disabled: Type.Boolean(),
  group_ids: Type.String({ description: 'comma-separated group ids' }),
  admin_group_ids: Type.Array(Type.Integer()),
  created_at: Type.String(),
  last_login_at: Type.Union([Type.String(), Type.Null()]),
  password_set_at: Type.Union([Type.String(), Type.Null()]),
});

/** The user as the API shows it: never a password or its hash (the schema has no such field). */
export function userBody(user: User, groups: UserGroupIds | undefined) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    workspace_id: user.workspaceId,
    site_admin: user.siteAdmin,
    workspace_admin: user.workspaceAdmin,
    disabled: user.disabled,
    group_ids: (groups?.groupIds ?? []).join(','),
    admin_group_ids: [...(groups?.adminGroupIds ?? [])],
    created_at: isoTime(user.createdAt),
    last_login_at: isoTime(user.lastLoginAt),
    password_set_at: isoTime(user.passwordSetAt),
  };
}

/** Ids as an array of integers or a comma-separated string (the Files.com SDK sends strings). */
export const IdList = Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10_000 })]);

/** An IdList field (`group_ids`, `user_ids`, ...) or the `ids` filter as distinct positive ids. */
export function parseIdList(field: string, value: string | readonly number[] | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()).filter((p) => p !== '') : value.map(String);
  const ids = parts.map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) throw errors.paramsInvalid({ [field]: ['must be a list of positive integer ids'] });
  return [...new Set(ids)];
}
