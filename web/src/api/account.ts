import { api, headerBrand } from './client';

export interface ApiKey {
  id: number;
  name: string;
  permission_set: 'full' | 'files_only';
  /** The Workspace the key was created in: its requests work there unless they select another. */
  workspace_id: number;
  created_at: string;
  expires_at: string | null;
  last_use_at: string | null;
}

/** The site rules that apply to every user (GET /site/policies). */
export interface SitePolicies {
  users_can_create_api_keys: boolean;
  password_min_length: number;
  trash_retention_days: number;
}

export async function getSitePolicies(): Promise<SitePolicies> {
  return (await api<SitePolicies>('GET', '/site/policies', { homeContext: true })).data;
}

export async function changePassword(userId: number, password: string): Promise<void> {
  await api('PATCH', `/users/${userId}`, { body: { password } });
}

/** The change a required password change asks for: the current password confirms it, sent with it. */
export async function replacePassword(userId: number, current: string, password: string): Promise<void> {
  await api('PATCH', `/users/${userId}`, { body: { password }, headers: { [`X-${headerBrand()}-Reauthentication`]: `password:${current}` }, homeContext: true });
}

/** The keys of a user (`0` is the caller). */
export async function listKeys(userId: number): Promise<ApiKey[]> {
  return (await api<ApiKey[]>('GET', '/api_keys', { query: { user_id: userId, per_page: 1000 } })).data;
}

/**
 * Creates a key for a user (`0` is the caller), in the current Workspace or, for a Site
 * Administrator working in Workspace 0, in `workspaceId`; the answer is the only time its secret is shown.
 */
export async function createKey(userId: number, name: string, permissionSet: ApiKey['permission_set'], workspaceId?: number): Promise<ApiKey & { key: string }> {
  return (await api<ApiKey & { key: string }>('POST', '/api_keys', {
    body: { user_id: userId, name, permission_set: permissionSet, ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }) },
  })).data;
}

export interface Workspace {
  id: number;
  name: string;
}

/** The Workspaces the signed-in person may see, asked in their own Workspace. */
export async function listWorkspaces(signal?: AbortSignal): Promise<Workspace[]> {
  return (await api<Workspace[]>('GET', '/workspaces', { homeContext: true, query: { per_page: 1000 }, ...(signal === undefined ? {} : { signal }) })).data;
}

export function workspaceLabel(workspaces: Workspace[], id: number): string {
  if (id === 0) return 'Default Workspace';
  const found = workspaces.find((w) => w.id === id);
  return found === undefined || found.name === '' ? `Workspace ${id}` : found.name;
}

export async function revokeKey(id: number): Promise<void> {
  await api('DELETE', `/api_keys/${id}`);
}
