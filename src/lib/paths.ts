import { errors } from '../errors/catalogue.js';

const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 4096;
// C0 and C1 control characters and DEL; NUL is among them. Matching them is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Canonical form of a folder path (contract 1.5): NFC, no leading, trailing or doubled `/`.
 * `.` and `..` segments, control characters and over-long input are refused rather than
 * resolved, so that no spelling can climb out of a Workspace root.
 */
export function canonicalPath(input: string): string {
  const known = recentlyCanonical.get(input);
  if (known !== undefined) return known;
  const canonical = canonicalPathOf(input);
  if (input.length > RECENT_PATH_LENGTH) return canonical;
  if (recentlyCanonical.size >= RECENT_PATHS) recentlyCanonical.clear();
  recentlyCanonical.set(input, canonical);
  return canonical;
}

/**
 * The same few paths are asked for again and again (every request of a client that lists one
 * folder), and normalizing and checking one costs about a microsecond: the last few thousand
 * answers for paths of ordinary length are kept (a few megabytes at most). A refused spelling
 * throws each time, as it is never kept.
 */
const recentlyCanonical = new Map<string, string>();
const RECENT_PATHS = 4_096;
const RECENT_PATH_LENGTH = 512;

function canonicalPathOf(input: string): string {
  const normalized = input.normalize('NFC');
  if (Buffer.byteLength(normalized, 'utf8') > MAX_PATH_BYTES) throw errors.invalidPath(`A path may be at most ${MAX_PATH_BYTES} bytes.`);
  if (CONTROL_CHARACTERS.test(normalized)) throw errors.invalidPath('A path may not contain control characters.');
  const segments = normalized.split('/').filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..') throw errors.invalidPath('A path may not contain "." or ".." segments.');
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      throw errors.invalidPath(`A path segment may be at most ${MAX_SEGMENT_BYTES} bytes.`);
    }
  }
  return segments.join('/');
}

/** Paths compare case-insensitively; the key is what indexes and comparisons use. */
export function pathKey(canonical: string): string {
  return canonical.toLowerCase();
}

/** The parent of a canonical path; the root's parent is the root. */
export function parentPath(canonical: string): string {
  const slash = canonical.lastIndexOf('/');
  return slash === -1 ? '' : canonical.slice(0, slash);
}

export function joinPath(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

/** Site path of a Custom Workspace's root folder (contract 1.5). */
export function workspaceRootPath(workspaceId: number): string {
  return workspaceId === 0 ? '' : `_/Workspaces/${workspaceId}`;
}
