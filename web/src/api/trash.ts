import { api, brandedHeader } from './client';
import type { Entry } from './files';

/** A deletion in the trash, as GET /trash lists it (docs/files.md, "The trash"). */
export interface TrashEntry {
  id: number;
  /** Where it was, as the request Workspace shows it. */
  path: string;
  display_name: string;
  type: 'directory' | 'file';
  /** Bytes of the files it holds. */
  size: number;
  /** Files it holds (a file: 1). */
  files: number;
  /** Files and folders it holds, itself included. */
  entries: number;
  deleted_at: string;
  /** Null for a site-wide key or an automation without a user. */
  deleted_by_id: number | null;
  expires_at: string;
}

export interface TrashPage {
  entries: TrashEntry[];
  next: string | undefined;
}

/** What a restore answers: where the entry is now, and whether its place was taken so it got a new name. */
export interface Restored {
  path: string;
  renamed: boolean;
  file: Entry;
}

const TRASH_PAGE_SIZE = 100;

/** A page of the deletions the caller could make now, newest first. */
export async function listTrash(cursor: string | undefined, signal?: AbortSignal): Promise<TrashPage> {
  const { data, headers } = await api<TrashEntry[]>('GET', '/trash', { query: { per_page: TRASH_PAGE_SIZE, cursor }, ...(signal === undefined ? {} : { signal }) });
  return { entries: data, next: brandedHeader(headers, 'Cursor') };
}

export async function restoreTrashed(id: number): Promise<Restored> {
  return (await api<Restored>('POST', `/trash/${id}/restore`)).data;
}

export async function purgeTrashed(id: number): Promise<void> {
  await api('DELETE', `/trash/${id}`);
}
