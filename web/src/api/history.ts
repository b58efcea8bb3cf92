import { api, brandedHeader } from './client';
import { encodePath } from './files';

/** The actions a History record may name (Files.com's, and Atrium's additions). */
export type HistoryAction =
  | 'create' | 'read' | 'update' | 'destroy' | 'move' | 'copy' | 'archived_delete'
  | 'login' | 'failedlogin' | 'logout' | 'failedreauth'
  | 'user_create' | 'user_update' | 'user_destroy' | 'group_create' | 'group_update' | 'group_destroy'
  | 'permission_create' | 'permission_destroy' | 'api_key_create' | 'api_key_update' | 'api_key_destroy'
  | 'workspace_create' | 'workspace_update' | 'workspace_destroy' | 'site_update'
  | 'public_key_create' | 'public_key_update' | 'public_key_destroy'
  | 'partner_create' | 'partner_update' | 'partner_destroy';

export type HistoryInterface = 'web' | 'restapi' | 'scim' | 'dav' | 'sftp' | 'cli';

/** One recorded action, as the API answers it (Files.com's History object). */
export interface HistoryRecord {
  id: number;
  /** As the caller would write it in its Workspace, no leading slash; null when no path was acted on. */
  path: string | null;
  when: string;
  destination: string | null;
  display: string;
  ip: string | null;
  source: string | null;
  targets: Record<string, unknown> | null;
  user_id: number | null;
  username: string | null;
  user_is_from_parent_site: boolean;
  // Strings, not the unions: a newer server may name actions and doors this console does not know yet.
  action: string;
  failure_type: string | null;
  interface: string | null;
}

/**
 * Which list to ask: the whole history the caller may see, or one of the API's narrower lists.
 * Only sign-ins have no equivalent filter (`filter[action]` takes one action), so the others are
 * asked as filters of the whole history.
 */
export type HistoryScope = { kind: 'all' } | { kind: 'login' } | { kind: 'user'; userId: number } | { kind: 'folder'; path: string } | { kind: 'file'; path: string };

export interface HistoryQuery {
  scope: HistoryScope;
  action?: string;
  username?: string;
  userId?: number;
  /** The folder and everything under it (`filter[folder]`). */
  folder?: string;
  /** Exactly this path (`filter[path]`). */
  path?: string;
  interface?: string;
  /** ISO date-times: inclusive start, exclusive end. */
  startAt?: string;
  endAt?: string;
  oldestFirst?: boolean;
}

export interface HistoryPage {
  records: HistoryRecord[];
  next: string | undefined;
}

export const HISTORY_PAGE_SIZE = 100;

function scopePath(scope: HistoryScope): string {
  switch (scope.kind) {
    case 'all': return '/history';
    case 'login': return '/history/login';
    case 'user': return `/history/users/${scope.userId}`;
    case 'folder': return `/history/folders/${encodePath(scope.path)}`;
    case 'file': return `/history/files/${encodePath(scope.path)}`;
  }
}

/** A page of recorded actions, newest first unless asked otherwise; a cursor belongs to its query. */
export async function listHistory(query: HistoryQuery, cursor: string | undefined, signal?: AbortSignal): Promise<HistoryPage> {
  const { data, headers } = await api<HistoryRecord[]>('GET', scopePath(query.scope), {
    query: {
      per_page: HISTORY_PAGE_SIZE,
      cursor,
      'sort_by[created_at]': query.oldestFirst === true ? 'asc' : 'desc',
      'filter[action]': query.action,
      'filter[username]': query.username,
      'filter[user_id]': query.userId,
      'filter[folder]': query.folder,
      'filter[path]': query.path,
      'filter[interface]': query.interface,
      start_at: query.startAt,
      end_at: query.endAt,
    },
    ...(signal === undefined ? {} : { signal }),
  });
  return { records: data, next: brandedHeader(headers, 'Cursor-Next') };
}
