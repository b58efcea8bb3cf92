import { ApiError as LinkError } from '../api/api-error';
import { encodePath } from '../api/files';

/**
 * The share link page's only way to the server: the public link API (docs/sharing.md), which needs
 * no account. A visit's proof (after a password or a registration) is an HttpOnly cookie the
 * server sets for the link's own path; this page never sees it, stores nothing, and never sends
 * the console's header, so no signed-in session of the same browser acts here.
 */

export type LinkPermissions = 'read' | 'write' | 'read_write' | 'full' | 'preview_only';

export interface Link {
  code: string;
  description: string | null;
  permissions: LinkPermissions;
  expires_at: string | null;
  password_protected: boolean;
  require_registration: boolean;
  /** This browser has given the password or registered, or the link needs neither. */
  unlocked: boolean;
  can: { list: boolean; download: boolean; preview: boolean; upload: boolean; delete: boolean };
  dont_allow_folders_in_uploads: boolean;
  max_upload_bytes: number;
}

export interface LinkEntry {
  /** Relative to the link: its first segment is one of the shared paths' names. */
  path: string;
  name: string;
  type: 'file' | 'directory';
  size: number | null;
  modified_at: string;
  mime_type: string | null;
  previewable: boolean;
}

export interface VisitDetails {
  password?: string;
  name?: string;
  email?: string;
  company?: string;
}

/** What an upload was stored as: its name may differ (` (1)`) when the name was taken. */
export interface StoredUpload {
  path: string;
  name: string;
  size: number;
}

/** An answer other than success, with the server's own sentence for people: the console's own error, without its session. */
export { LinkError };

/** The link closed, for whatever reason: the server answers every such case alike. */
export const LINK_NOT_FOUND = 'not-found/bundle-not-found';
/** The link wants its password or a registration first (the visit cookie is missing or stale). */
export const VISIT_REQUIRED = 'not-authenticated/bundle-visit-required';

function linkRoot(code: string): string {
  return `/api/public/bundles/${encodeURIComponent(code)}`;
}

/** The address of a file of the link, shown in the page (`inline`) or saved (`attachment`). */
export function fileUrl(code: string, path: string, disposition: 'inline' | 'attachment'): string {
  return `${linkRoot(code)}/files/${encodePath(path)}?disposition=${disposition}`;
}

/** The address of a ZIP of a folder of the link ('' for everything it shares). */
export function zipUrl(code: string, path: string): string {
  return `${linkRoot(code)}/zip?${new URLSearchParams({ path }).toString()}`;
}

/** The address a file is uploaded to: `folder/name` below the link. */
export function uploadUrl(code: string, folder: string, name: string): string {
  return `${linkRoot(code)}/files/${encodePath(folder === '' ? name : `${folder}/${name}`)}`;
}

/** An error answer's fields, keeping only what has the documented shape. */
export function errorOf(status: number, text: string): LinkError {
  let body: { type?: unknown; error?: unknown; model_errors?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed;
  } catch {
    // Not JSON (a proxy's page): the status alone says what happened.
  }
  const fields: Record<string, string[]> = {};
  if (typeof body.model_errors === 'object' && body.model_errors !== null) {
    for (const [field, messages] of Object.entries(body.model_errors)) {
      if (Array.isArray(messages)) fields[field] = messages.filter((m): m is string => typeof m === 'string');
    }
  }
  return new LinkError(
    status,
    typeof body.type === 'string' ? body.type : 'unknown',
    typeof body.error === 'string' ? body.error : `The server answered ${status}.`,
    fields,
  );
}

async function call<T>(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (caught) {
    if (signal?.aborted) throw caught;
    throw new LinkError(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  if (!response.ok) throw errorOf(response.status, text);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export function getLink(code: string, signal?: AbortSignal): Promise<Link> {
  return call<Link>('GET', linkRoot(code), undefined, signal);
}

/** Gives the password and/or the registration; the server answers with the visit cookie. */
export async function visit(code: string, details: VisitDetails): Promise<void> {
  await call<unknown>('POST', `${linkRoot(code)}/visits`, details);
}

export async function listEntries(code: string, path: string, signal?: AbortSignal): Promise<LinkEntry[]> {
  const answer = await call<{ entries: LinkEntry[] }>('GET', `${linkRoot(code)}/entries?${new URLSearchParams({ path }).toString()}`, undefined, signal);
  return answer.entries;
}

/**
 * Uploads one file as the request's whole body. XMLHttpRequest rather than fetch: it is what
 * reports how much of the body has been sent.
 */
export function uploadToLink(
  code: string,
  folder: string,
  file: File,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
): Promise<StoredUpload> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', uploadUrl(code, folder, file.name));
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        try {
          resolve(JSON.parse(request.responseText) as StoredUpload);
        } catch {
          resolve({ path: file.name, name: file.name, size: file.size });
        }
      } else {
        reject(errorOf(request.status, request.responseText));
      }
    };
    request.onerror = () => reject(new LinkError(0, 'network', 'The connection to the server was lost.'));
    request.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
    if (signal.aborted) return reject(new DOMException('Cancelled', 'AbortError'));
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
