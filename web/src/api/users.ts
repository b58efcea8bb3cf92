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
}

export interface UserPage {
  users: User[];
  next: string | undefined;
}

/** Users the caller may see in the current Workspace, a page at a time; `username` finds one by name. */
export async function listUsers(cursor: string | undefined, username: string | undefined): Promise<UserPage> {
  const { data, headers } = await api<User[]>('GET', '/users', {
    query: { per_page: 100, cursor, ...(username === undefined || username === '' ? {} : { 'filter[username]': username }) },
  });
  return { users: data, next: brandedHeader(headers, 'Cursor') };
}

export interface NewUser {
  username: string;
  password: string;
  name: string;
  email: string;
  site_admin?: boolean;
  workspace_admin?: boolean;
}

export async function createUser(user: NewUser): Promise<User> {
  return (await api<User>('POST', '/users', { body: user })).data;
}

export async function updateUser(id: number, changes: Partial<Pick<User, 'disabled' | 'site_admin' | 'workspace_admin'>> & { password?: string }): Promise<User> {
  return (await api<User>('PATCH', `/users/${id}`, { body: changes })).data;
}

export async function deleteUser(id: number): Promise<void> {
  await api('DELETE', `/users/${id}`);
}
