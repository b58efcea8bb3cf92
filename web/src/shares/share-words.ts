import type { BundlePermission } from '../api/bundles';

/** What a link lets its visitors do, in the words the console shows (docs/sharing.md#fields). */
export const PERMISSION_WORDS: Readonly<Record<BundlePermission, { label: string; description: string }>> = {
  read: { label: 'View and download', description: 'Visitors see what is shared and download it.' },
  preview_only: { label: 'View only (preview)', description: 'Visitors see what is shared in the browser, without downloading it.' },
  write: { label: 'Upload only (file request)', description: 'Visitors upload files into the folder and see nothing that is there.' },
  read_write: { label: 'View, download and upload', description: 'Visitors see and download what is there, and upload files into it.' },
  full: { label: 'Full: also replace and delete', description: 'Visitors see, download and upload, and replace or delete what is there.' },
};

/** Permissions a link of a file may have: a file takes no uploads. */
export const FILE_PERMISSIONS: readonly BundlePermission[] = ['read', 'preview_only'];
/** Permissions a link of a folder may have. */
export const FOLDER_PERMISSIONS: readonly BundlePermission[] = ['read', 'preview_only', 'write', 'read_write', 'full'];

/** Whether visitors of a link with these permissions upload (the upload settings matter only then). */
export function takesUploads(permission: BundlePermission): boolean {
  return permission === 'write' || permission === 'read_write' || permission === 'full';
}

export function permissionInWords(permission: string): string {
  return PERMISSION_WORDS[permission as BundlePermission]?.label ?? permission;
}

/** An ISO time as a `datetime-local` input shows it: the browser's own time zone, to the minute. */
export function localInputOf(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` input's value as an ISO time (null when empty); undefined when it is no time. */
export function isoOfLocalInput(value: string): string | null | undefined {
  if (value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Addresses typed separated by commas, semicolons, spaces or lines. */
export function addressesOf(text: string): string[] {
  return text.split(/[\s,;]+/).map((a) => a.trim()).filter((a) => a !== '');
}
