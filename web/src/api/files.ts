import { api, brandedHeader } from './client';

/** A folder entry as the API lists it. */
export interface Entry {
  path: string;
  display_name: string;
  type: 'directory' | 'file';
  size: number | null;
  mtime: string;
  permissions: string;
}

export interface Page {
  entries: Entry[];
  /** The cursor of the next page, when there is one. */
  next: string | undefined;
}

export const PAGE_SIZE = 200;

/** A path as a URL: every segment percent-encoded, so `#`, `?` and `%` in names stay names. */
export function encodePath(path: string): string {
  return path.split('/').filter((s) => s !== '').map(encodeURIComponent).join('/');
}

export function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The API's sort fields for a folder listing (folders always come first). */
export type SortField = 'path' | 'size' | 'modified_at_datetime';

export interface FolderSort {
  field: SortField;
  direction: 'asc' | 'desc';
}

export const DEFAULT_SORT: FolderSort = { field: 'path', direction: 'asc' };

/** A page of a folder in a sort; a cursor belongs to the sort it was handed out in. */
export async function listFolder(path: string, sort: FolderSort, cursor: string | undefined, signal?: AbortSignal): Promise<Page> {
  const { data, headers } = await api<Entry[]>('GET', `/folders/${encodePath(path)}`, {
    query: { per_page: PAGE_SIZE, [`sort_by[${sort.field}]`]: sort.direction, cursor },
    ...(signal === undefined ? {} : { signal }),
  });
  return { entries: data, next: brandedHeader(headers, 'Cursor') };
}

export async function createFolder(path: string): Promise<void> {
  await api('POST', `/folders/${encodePath(path)}`, { body: { mkdir_parents: false } });
}

export async function deleteEntry(path: string): Promise<void> {
  await api('DELETE', `/files/${encodePath(path)}`, { query: { recursive: true } });
}

export async function moveEntry(path: string, destination: string): Promise<void> {
  await api('POST', `/file_actions/move/${encodePath(path)}`, { body: { destination } });
}

export async function copyEntry(path: string, destination: string): Promise<void> {
  await api('POST', `/file_actions/copy/${encodePath(path)}`, { body: { destination } });
}

/** A signed link to the file's bytes, valid for a short while, that needs no credential. */
export async function downloadLink(path: string): Promise<string> {
  const { data } = await api<{ download_uri: string }>('GET', `/files/${encodePath(path)}`);
  return data.download_uri;
}

/** The caller's letters on a folder itself (the root included). */
export async function folderPermissions(path: string, signal?: AbortSignal): Promise<string> {
  const { data } = await api<Entry>('GET', `/file_actions/metadata/${encodePath(path)}`, signal === undefined ? {} : { signal });
  return data.permissions;
}
