import { createHash } from 'node:crypto';
import { scimErrors } from './scim-error.js';

/**
 * A resource's version is a weak ETag of its SCIM form without `meta`: any change that shows
 * changes it, and it needs nothing stored.
 */
export function versionOf(resource: object): string {
  return `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22)}"`;
}

/** `If-Match` on a change (RFC 7644 §3.14): the change goes ahead only on the version named, or `*`. */
export function checkIfMatch(header: string | string[] | undefined, version: string): void {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '*') return;
  const tags = value.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes(version.replace(/^W\//, ''))) throw scimErrors.versionMismatch();
}

export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}
