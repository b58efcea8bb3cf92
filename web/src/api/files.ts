import { api, brandedHeader } from './client';

/** A folder entry as the API lists it. */
export interface Entry {
  path: string;
  display_name: string;
  type: 'directory' | 'file';
  size: number | null;
  mtime: string;
  permissions: string;
  /** A file's media type by its name (`application/octet-stream` when unknown); null for a folder. */
  mime_type?: string | null;
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

export const SEARCH_PAGE_SIZE = 100;

/**
 * A page of the entries whose name holds `text`, in the folder and every folder below it
 * (`search_all`, docs/files.md "Searching and filtering"), in the server's order, folder by folder.
 */
export async function searchBelow(path: string, text: string, cursor: string | undefined, signal?: AbortSignal): Promise<Page> {
  const { data, headers } = await api<Entry[]>('GET', `/folders/${encodePath(path)}`, {
    query: { per_page: SEARCH_PAGE_SIZE, search: text, search_all: true, cursor },
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

/** A file as the API describes it, with a signed link to its bytes when the caller may read it. */
export async function fileDetails(path: string, signal?: AbortSignal): Promise<Entry & { download_uri?: string }> {
  const { data } = await api<Entry & { download_uri?: string }>('GET', `/files/${encodePath(path)}`, signal === undefined ? {} : { signal });
  return data;
}

/** Several files and folders as one ZIP (`POST /file_actions/zip`), and the name the server gave it. */
export async function zipOf(paths: string[]): Promise<{ blob: Blob; name: string }> {
  const { data, headers } = await api<Blob>('POST', '/file_actions/zip', { body: { paths }, blob: true });
  const named = /filename\*=UTF-8''([^;]+)/.exec(headers.get('Content-Disposition') ?? '');
  return { blob: data, name: named?.[1] === undefined ? 'files.zip' : decodeURIComponent(named[1]) };
}

/** The caller's letters on a folder itself (the root included). */
export async function folderPermissions(path: string, signal?: AbortSignal): Promise<string> {
  const { data } = await api<Entry>('GET', `/file_actions/metadata/${encodePath(path)}`, signal === undefined ? {} : { signal });
  return data.permissions;
}
