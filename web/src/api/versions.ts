import { api } from './client';
import type { Entry } from './files';

/** An earlier content of a file, as GET /file_versions lists it (docs/files.md, "Versions"). */
export interface FileVersion {
  id: number;
  path: string;
  size: number;
  sha256: string | null;
  /** When this content was written. */
  mtime: string;
  /** Who wrote this content. */
  created_by_id: number | null;
  /** When it stopped being the file's content, and who replaced it. */
  replaced_at: string;
  replaced_by_id: number | null;
}

/** A file's earlier contents, newest first (the site keeps a bounded number, all listed at once). */
export async function listVersions(path: string, signal?: AbortSignal): Promise<FileVersion[]> {
  return (await api<FileVersion[]>('GET', '/file_versions', { query: { path }, ...(signal === undefined ? {} : { signal }) })).data;
}

/** Makes a version the file's content again; the content it had becomes its newest version. */
export async function restoreVersion(id: number): Promise<Entry> {
  return (await api<Entry>('POST', `/file_versions/${id}/restore`)).data;
}
