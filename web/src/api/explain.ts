import { api } from './client';

export interface Reason {
  kind: 'capability' | 'role';
  capability?: string | null;
  role?: string | null;
  source: 'site_admin' | 'workspace_admin_flag' | 'workspace_admin_grant' | 'grant' | 'hidden_grant';
  permission_id?: number | null;
  path?: string | null;
  permission?: string | null;
  recursive?: boolean | null;
  via?: 'user' | 'group' | 'groups' | null;
  group_name?: string | null;
  group_names?: string[];
  workspace_id?: number | null;
}

export interface NearMiss {
  id: number;
  path: string;
  permission: string;
  reasons: { code: string; missing_group_names?: string[]; group_name?: string | null; username?: string | null }[];
}

export interface Explanation {
  path: string;
  type: string;
  user_id: number | null;
  site_admin: boolean;
  workspace_admin: boolean;
  folder_admin: boolean;
  capabilities: string[];
  reasons: Reason[];
  near_misses: NearMiss[];
}

export async function explain(path: string, userId: number | undefined, options: { type?: 'file' | 'directory'; signal?: AbortSignal } = {}): Promise<Explanation> {
  return (await api<Explanation>('GET', '/permissions/explain', {
    query: { path, user_id: userId, type: options.type },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })).data;
}

/** Whether the caller may manage the grants on a folder (Site, Workspace or Folder Admin there). */
export async function mayManage(path: string, signal?: AbortSignal): Promise<boolean> {
  return (await explain(path, undefined, { type: 'directory', ...(signal === undefined ? {} : { signal }) })).capabilities.includes('manage');
}
