import { api } from './client';

export interface ApiKey {
  id: number;
  name: string;
  permission_set: 'full' | 'files_only';
  created_at: string;
  expires_at: string | null;
  last_use_at: string | null;
}

export async function changePassword(userId: number, password: string): Promise<void> {
  await api('PATCH', `/users/${userId}`, { body: { password } });
}

/** The keys of a user (`0` is the caller). */
export async function listKeys(userId: number): Promise<ApiKey[]> {
  return (await api<ApiKey[]>('GET', '/api_keys', { query: { user_id: userId, per_page: 1000 } })).data;
}

/** Creates a key for a user (`0` is the caller); the answer is the only time its secret is shown. */
export async function createKey(userId: number, name: string, permissionSet: ApiKey['permission_set']): Promise<ApiKey & { key: string }> {
  return (await api<ApiKey & { key: string }>('POST', '/api_keys', { body: { user_id: userId, name, permission_set: permissionSet } })).data;
}

export async function revokeKey(id: number): Promise<void> {
  await api('DELETE', `/api_keys/${id}`);
}
