import { api, brandedHeader } from './client';

/** Why a user reaches a path: a role, or a grant (whose details are withheld when the caller may not list it). */
export interface ReachCause {
  source: 'site_admin' | 'workspace_admin_flag' | 'grant' | 'hidden_grant';
  permission_id: number | null;
  path: string | null;
  permission: string | null;
  recursive: boolean | null;
  applies: 'direct' | 'group' | 'all_of' | null;
  group_name: string | null;
  group_names: string[];
  role: string | null;
}

export interface ReachRow {
  user_id: number;
  username: string;
  permission: string;
  capabilities: string[];
  role: string | null;
  because: ReachCause[];
}

export interface ReachPage {
  rows: ReachRow[];
  next: string | undefined;
}

/** Who can reach a path (GET /permissions/reach), a page at a time. */
export async function reachOf(path: string, type: 'file' | 'directory', cursor: string | undefined, signal?: AbortSignal): Promise<ReachPage> {
  const { data, headers } = await api<ReachRow[]>('GET', '/permissions/reach', { query: { path, type, per_page: 100, cursor }, ...(signal === undefined ? {} : { signal }) });
  return { rows: data, next: brandedHeader(headers, 'Cursor') };
}
