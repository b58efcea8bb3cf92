import { Type } from 'typebox';
import type { User, UserGroupIds } from '../../directory/index.js';
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
  lockout_expires: Type.Union([Type.String(), Type.Null()], { description: 'when the user\'s sign-in lockout ends; null when it is not locked out' }),
});

/** The user as the API shows it: never a password or its hash (the schema has no such field). */
export function userBody(user: User, groups: UserGroupIds | undefined, lockoutEnd: number | undefined) {
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
    lockout_expires: isoTime(lockoutEnd ?? null),
  };
}
