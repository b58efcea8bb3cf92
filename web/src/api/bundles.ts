import { api } from './client';

/** What a share link's visitors may do (docs/sharing.md#fields). */
export type BundlePermission = 'read' | 'preview_only' | 'write' | 'read_write' | 'full';

/** A share link as the API answers it, the fields the console uses. */
export interface Bundle {
  id: number;
  code: string;
  url: string;
  description: string | null;
  internal_name: string | null;
  note: string | null;
  expires_at: string | null;
  start_access_on_date: string | null;
  max_uses: number | null;
  password_protected: boolean;
  permissions: BundlePermission;
  require_registration: boolean;
  path_template: string | null;
  dont_separate_submissions_by_folder: boolean;
  dont_allow_folders_in_uploads: boolean;
  user_id: number | null;
  username: string | null;
  created_at: string;
  /** Not in a listing: only `GET /bundles/<id>` and the answers of a change carry them. */
  paths?: string[];
  /** Each shared path, and whether it reaches below (a folder) or not (a file). */
  bundlepaths?: { path: string; recursive: boolean }[];
}

/** What the console's form sets on a link; `password` only when it is to change. */
export interface BundleSettings {
  paths?: string[];
  permissions?: BundlePermission;
  description?: string | null;
  note?: string | null;
  expires_at?: string | null;
  start_access_on_date?: string | null;
  max_uses?: number | null;
  password?: string | null;
  require_registration?: boolean;
  path_template?: string | null;
  dont_separate_submissions_by_folder?: boolean;
  dont_allow_folders_in_uploads?: boolean;
}

export interface BundleRecipient {
  id: number;
  recipient: string;
  name: string | null;
  company: string | null;
  note: string | null;
  created_at: string;
}

export interface BundleRegistration {
  id: number;
  name: string | null;
  email: string | null;
  company: string | null;
  ip: string | null;
  created_at: string;
}

export interface BundleDownload {
  id: number;
  bundle_registration: BundleRegistration | null;
  download_method: string;
  path: string | null;
  created_at: string;
}

export interface BundleAction {
  id: number;
  action: string;
  bundle_registration_name: string | null;
  bundle_registration_email: string | null;
  path: string | null;
  source: string | null;
  destination: string | null;
  created_at: string;
}

const withSignal = (signal?: AbortSignal) => (signal === undefined ? {} : { signal });

/** The caller's links (every link of the Workspace, to its administrators), soonest to expire first. */
export async function listBundles(signal?: AbortSignal): Promise<Bundle[]> {
  return (await api<Bundle[]>('GET', '/bundles', { query: { per_page: 1000 }, ...withSignal(signal) })).data;
}

export async function getBundle(id: number, signal?: AbortSignal): Promise<Bundle> {
  return (await api<Bundle>('GET', `/bundles/${id}`, withSignal(signal))).data;
}

export async function createBundle(settings: BundleSettings): Promise<Bundle> {
  return (await api<Bundle>('POST', '/bundles', { body: settings })).data;
}

export async function updateBundle(id: number, changes: BundleSettings): Promise<Bundle> {
  return (await api<Bundle>('PATCH', `/bundles/${id}`, { body: changes })).data;
}

export async function deleteBundle(id: number): Promise<void> {
  await api('DELETE', `/bundles/${id}`);
}

/** Records the addresses as the link's recipients; Atrium sends them nothing. */
export async function shareBundle(id: number, to: string[], note: string | undefined): Promise<void> {
  await api('POST', `/bundles/${id}/share`, { body: { to, ...(note === undefined || note === '' ? {} : { note }) } });
}

/** One link's records, oldest first, up to 1000 of each. */
async function recordsOf<T>(path: string, bundleId: number, signal?: AbortSignal): Promise<T[]> {
  return (await api<T[]>('GET', path, { query: { bundle_id: bundleId, per_page: 1000 }, ...withSignal(signal) })).data;
}

export const listRecipients = (bundleId: number, signal?: AbortSignal) => recordsOf<BundleRecipient>('/bundle_recipients', bundleId, signal);
export const listRegistrations = (bundleId: number, signal?: AbortSignal) => recordsOf<BundleRegistration>('/bundle_registrations', bundleId, signal);
export const listDownloads = (bundleId: number, signal?: AbortSignal) => recordsOf<BundleDownload>('/bundle_downloads', bundleId, signal);
export const listActions = (bundleId: number, signal?: AbortSignal) => recordsOf<BundleAction>('/bundle_actions', bundleId, signal);
