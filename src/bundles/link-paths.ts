import type { FileSession } from '../files/index.js';
import { errors } from '../errors/catalogue.js';
import type { BundlePath } from '../repositories/bundles.js';

// Paths as a link's visitors name them (docs/sharing.md#visiting-a-link): relative to the link.
// '' is the link's top; the first segment names one of its shared paths by its last segment (the
// later of two with the same name get " (2)", " (3)"...), and the rest lies below it. Nothing here
// decides access: a path only names a place inside a shared path, and the link's file session
// decides whether the visitor reaches it.

/** One of the link's shared paths as its visitors see it: its name at the link's top, and where it is in the Workspace. */
export interface SharedTop {
  /** Its name at the link's top. */
  name: string;
  /** Its path as the link's Workspace names it (what the file session takes). */
  path: string;
  /** Its qualified site path. */
  sitePath: string;
  recursive: boolean;
}

/** The link's shared paths under their names at its top, in the link's order. */
export function sharedTops(session: FileSession, paths: readonly BundlePath[]): SharedTop[] {
  const taken = new Map<string, number>();
  return paths.flatMap((shared) => {
    const path = session.shownPath(shared.path);
    // A shared path the session cannot show lies outside the link's Workspace: it reaches nothing.
    if (path === null || path === '') return [];
    const last = path.slice(path.lastIndexOf('/') + 1);
    const seen = (taken.get(last.toLowerCase()) ?? 0) + 1;
    taken.set(last.toLowerCase(), seen);
    return [{ name: seen === 1 ? last : `${last} (${seen})`, path, sitePath: shared.path, recursive: shared.recursive }];
  });
}

/** A path inside the link: the shared path it lies in, and what lies below that ('' for the shared path itself). */
export interface LinkPlace {
  top: SharedTop;
  /** The segments below the shared path. */
  below: string[];
}

/**
 * Where a visitor's path lies: undefined for the link's top. A segment that is empty, `.` or `..`
 * is refused (`bad-request/invalid-path`), never resolved, so no spelling climbs out of a shared
 * path; a first segment that names none of the link's shared paths is `not-found/file-not-found`.
 */
export function placeOf(tops: readonly SharedTop[], relative: string): LinkPlace | undefined {
  if (relative === '') return undefined;
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw errors.invalidPath('A path inside a share link is its names joined by "/": no empty segment, "." or "..".');
  }
  const [first, ...below] = segments as [string, ...string[]];
  const top = tops.find((candidate) => candidate.name === first);
  if (top === undefined) throw errors.fileNotFound();
  return { top, below };
}

/** The Workspace path of a place, as the file session takes it. */
export function workspacePathOf(place: LinkPlace): string {
  return [place.top.path, ...place.below].join('/');
}

/** The link-relative path of a place. */
export function relativePathOf(place: LinkPlace): string {
  return [place.top.name, ...place.below].join('/');
}
