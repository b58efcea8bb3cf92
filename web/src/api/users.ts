import { api, brandedHeader } from './client';

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  workspace_id: number;
  site_admin: boolean;
  workspace_admin: boolean;
  disabled: boolean;
  last_login_at: string | null;
  /** The Partner the user belongs to, if any, and whether they are one of its Partner Admins. */
  partner_id: number | null;
  partner_admin: boolean;
  partner_name: string | null;
  /** Whether the user has two-factor authentication, and which: 'totp', 'webauthn' or 'totp_webauthn'. */
  active_2fa?: boolean;
  type_of_2fa?: string | null;
  /** This user's own rule, over the site's: the site's setting, always, or never. */
  require_2fa?: Require2fa;
}

export type Require2fa = 'use_system_setting' | 'always_require' | 'never_require';

export interface UserPage {
  users: User[];
  next: string | undefined;
}

/**
 * Users the caller may see in the current Workspace, a page at a time; `username` finds one by
 * name, `partnerId` lists one Partner's users.
 */
export async function listUsers(cursor: string | undefined, username: string | undefined, signal?: AbortSignal, partnerId?: number): Promise<UserPage> {
  const { data, headers } = await api<User[]>('GET', '/users', {
    query: {
      per_page: 100,
      cursor,
      ...(username === undefined || username === '' ? {} : { 'filter[username]': username }),
      ...(partnerId === undefined ? {} : { 'filter[partner_id]': partnerId }),
    },
    ...(signal === undefined ? {} : { signal }),
  });
  return { users: data, next: brandedHeader(headers, 'Cursor') };
}

export interface NewUser {
  username: string;
  password: string;
  name?: string;
  email?: string;
  site_admin?: boolean;
  workspace_admin?: boolean;
  /** A Partner user of this Partner; `partner_admin` makes them one of its Partner Admins. */
  partner_id?: number;
  partner_admin?: boolean;
}

export async function createUser(user: NewUser): Promise<User> {
  return (await api<User>('POST', '/users', { body: user })).data;
}

export type UserChanges = Partial<Pick<User, 'username' | 'name' | 'email' | 'disabled' | 'site_admin' | 'workspace_admin' | 'partner_admin' | 'require_2fa'>> & { password?: string };

export async function updateUser(id: number, changes: UserChanges): Promise<User> {
  return (await api<User>('PATCH', `/users/${id}`, { body: changes })).data;
}

export async function deleteUser(id: number): Promise<void> {
  await api('DELETE', `/users/${id}`);
}

/** Removes every two-factor method and recovery code of a user who lost them, and ends their sessions. */
export async function resetTwoFactor(id: number): Promise<void> {
  await api('POST', `/users/${id}/2fa/reset`, { body: {} });
}

/**
 * The user a person means by what they typed: an exact user name among the users the caller may
 * see, or `#` and a user id (for a user the caller cannot list, such as a colleague a Group Admin
 * or Folder Admin is told the id of; the server still decides whether the change is allowed).
 */
export async function resolveUser(typed: string): Promise<{ id: number; label: string } | undefined> {
  const text = typed.trim();
  const byId = /^#(\d{1,10})$/.exec(text);
  if (byId !== null) return { id: Number(byId[1]), label: `user #${byId[1]}` };
  const { users } = await listUsers(undefined, text);
  const found = users[0];
  return found === undefined ? undefined : { id: found.id, label: found.username };
}

export async function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return (await api<User>('GET', `/users/${id}`, signal === undefined ? {} : { signal })).data;
}

/** The user names of these users the caller may see, by id (those it may not see are absent). */
export async function usernamesOf(ids: readonly number[], signal?: AbortSignal): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { data } = await api<{ id: number; username: string }[]>('GET', '/users', { query: { ids: ids.join(','), per_page: 1000 }, ...(signal === undefined ? {} : { signal }) });
  return new Map(data.map((u) => [u.id, u.username]));
}
