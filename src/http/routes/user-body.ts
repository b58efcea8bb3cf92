import { Type } from 'typebox';
import { filesystemLayoutOf } from '../../access/index.js';
import type { User, UserGroupIds, UserProfileInput } from '../../directory/index.js';
import { type SecondFactors, typeOf2fa as typeOf2faOf } from '../../identity/index.js';
import { definedOnly } from '../../lib/defined-only.js';

/** `type_of_2fa_for_display`: the methods in words. */
const TWO_FACTOR_WORDS: Readonly<Record<string, string>> = { none: '', totp: 'Authenticator app', webauthn: 'Passkey', totp_webauthn: 'Authenticator app and passkey' };
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
  first_login_at: Type.Union([Type.String(), Type.Null()], { description: 'the first sign-in at any door (activity times are kept to a minute)' }),
  last_active_at: Type.Union([Type.String(), Type.Null()], { description: 'the latest of the activity times below' }),
  last_api_use_at: Type.Union([Type.String(), Type.Null()], { description: 'a REST request from anything but the web console' }),
  last_web_login_at: Type.Union([Type.String(), Type.Null()]),
  last_restapi_login_at: Type.Union([Type.String(), Type.Null()], { description: 'POST /sessions from anything but the web console' }),
  last_sftp_login_at: Type.Union([Type.String(), Type.Null()]),
  last_dav_login_at: Type.Union([Type.String(), Type.Null()]),
  time_zone: Type.Union([Type.String(), Type.Null()]),
  language: Type.Union([Type.String(), Type.Null()]),
  company: Type.String(),
  notes: Type.Optional(Type.String({ description: 'only to administrators of the user\'s Workspace' })),
  allowed_ips: Type.String({ description: 'newline-separated addresses and CIDR ranges; empty is any address' }),
  authenticate_until: Type.Union([Type.String(), Type.Null()]),
  require_password_change: Type.Boolean(),
  ssl_required: Type.String(),
  require_2fa: Type.String({ description: 'use_system_setting, always_require or never_require: whether this user must have two-factor authentication (only administrators set it)' }),
  active_2fa: Type.Boolean({ description: 'read-only: the user has a second factor set up' }),
  type_of_2fa: Type.Union([Type.String(), Type.Null()], { description: 'read-only: totp, webauthn, or both as totp_webauthn; null for none' }),
  type_of_2fa_for_display: Type.String({ description: 'read-only: type_of_2fa in words' }),
  user_root: Type.String(),
  sftp_permission: Type.Boolean(),
  dav_permission: Type.Boolean(),
  ftp_permission: Type.Boolean(),
  restapi_permission: Type.Boolean(),
  lockout_expires: Type.Union([Type.String(), Type.Null()], { description: 'when the user\'s sign-in lockout ends; null when it is not locked out' }),
  partner_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the Partner the user belongs to; set when the user is created' }),
  partner_admin: Type.Boolean({ description: 'a Partner Admin of its Partner' }),
  partner_name: Type.Union([Type.String(), Type.Null()], { description: 'read-only: the name of its Partner' }),
  filesystem_layout: Type.Union([Type.Literal('site_root'), Type.Literal('workspace_root'), Type.Literal('partner_root')], {
    description: 'read-only: the folder the user sees as its root: the site root, its Workspace\'s root, or its Partner\'s root folder',
  }),
  authentication_method: Type.String({ description: '`password`, or `sso`: signs in at its sign-in provider (sso_strategy_id) only, and has no password' }),
  sso_strategy_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the sign-in provider of an sso user' }),
});

/** The profile fields as a request sends them (POST and PATCH /users). */
export const UserProfileFields = {
  time_zone: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  language: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  company: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  notes: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
  allowed_ips: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
  user_root: Type.Optional(Type.Union([Type.String({ maxLength: 8192 }), Type.Null()])),
  filesystem_layout: Type.Optional(Type.String({ maxLength: 64, description: 'read-only: a Partner user\'s is partner_root, and another value is refused' })),
  authenticate_until: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  require_password_change: Type.Optional(Type.Boolean()),
  ssl_required: Type.Optional(Type.String({ maxLength: 64 })),
  require_2fa: Type.Optional(Type.String({ maxLength: 64 })),
  sftp_permission: Type.Optional(Type.Boolean()),
  dav_permission: Type.Optional(Type.Boolean()),
  ftp_permission: Type.Optional(Type.Boolean()),
  restapi_permission: Type.Optional(Type.Boolean()),
};

type ProfileBody = { [K in keyof typeof UserProfileFields]?: string | boolean | null };

/** The profile fields of a request body, in the directory's terms; fields not sent stay absent. */
export function userProfileInput(body: ProfileBody): UserProfileInput {
  const text = (value: unknown) => value as string | null | undefined;
  const flag = (value: unknown) => value as boolean | undefined;
  return definedOnly({
    timeZone: text(body.time_zone), language: text(body.language), company: text(body.company), notes: text(body.notes),
    allowedIps: text(body.allowed_ips), userRoot: text(body.user_root), filesystemLayout: body.filesystem_layout as string | undefined,
    authenticateUntil: text(body.authenticate_until),
    requirePasswordChange: flag(body.require_password_change), sslRequired: body.ssl_required as string | undefined, require2fa: body.require_2fa as string | undefined,
    sftpPermission: flag(body.sftp_permission), davPermission: flag(body.dav_permission), ftpPermission: flag(body.ftp_permission),
    restapiPermission: flag(body.restapi_permission),
  });
}

/**
 * The user as the API shows it: never a password or its hash (the schema has no such field);
 * `notes` only when `showNotes` (the caller administers the user's Workspace); `lockoutEnd` when
 * its sign-in lockout ends, if it is locked out.
 */
export function userBody(
  user: User, groups: UserGroupIds | undefined, showNotes: boolean, lockoutEnd: number | undefined, partnerName: string | undefined, secondFactors: SecondFactors | undefined,
) {
  const p = user.profile;
  const typeOf2fa = secondFactors === undefined ? null : typeOf2faOf(secondFactors);
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
    first_login_at: isoTime(user.activity.firstLoginAt),
    last_active_at: isoTime(user.activity.lastActiveAt),
    last_api_use_at: isoTime(user.activity.lastApiUseAt),
    last_web_login_at: isoTime(user.activity.lastWebLoginAt),
    last_restapi_login_at: isoTime(user.activity.lastRestapiLoginAt),
    last_sftp_login_at: isoTime(user.activity.lastSftpLoginAt),
    last_dav_login_at: isoTime(user.activity.lastDavLoginAt),
    time_zone: p.timeZone,
    language: p.language,
    company: p.company,
    ...(showNotes ? { notes: p.notes } : {}),
    allowed_ips: p.allowedIps,
    authenticate_until: isoTime(p.authenticateUntil),
    require_password_change: p.requirePasswordChange,
    ssl_required: p.sslRequired,
    require_2fa: p.require2fa,
    active_2fa: typeOf2fa !== null,
    type_of_2fa: typeOf2fa,
    type_of_2fa_for_display: TWO_FACTOR_WORDS[typeOf2fa ?? 'none'] ?? typeOf2fa ?? '',
    user_root: p.userRoot,
    sftp_permission: p.sftpPermission,
    dav_permission: p.davPermission,
    ftp_permission: p.ftpPermission,
    restapi_permission: p.restapiPermission,
    lockout_expires: isoTime(lockoutEnd ?? null),
    partner_id: user.partnerId,
    partner_admin: user.partnerAdmin,
    partner_name: partnerName ?? null,
    filesystem_layout: filesystemLayoutOf(user),
    authentication_method: user.authentication.method,
    sso_strategy_id: user.authentication.ssoStrategyId,
  };
}
