import { posix } from 'node:path';

// The spellings with which a caller might try to name something outside what it may reach, written
// once for every door that takes a path: the file contract's doors (file-contract.ts), which see
// paths relative to a Workspace, and a share link of the folder `shared` (link-traversal.test.ts),
// whose paths are relative to the link. The link's top shows the folder as `shared`, so its
// link-relative paths start with `shared/` exactly as the Workspace-relative ones do, and the same
// spellings name the same places.
//
// The Workspace's top holds `shared/doc.txt` (SHARED_WORDS) and `private/secret.txt`; another
// Workspace holds `elsewhere.txt`. The caller reaches `shared` and nothing beside it: the
// contract's member (a read grant on `shared`), or the link's visitor.

export const SHARED_FILE = 'shared/doc.txt';
export const SHARED_WORDS = 'shared words';
export const SECRET_FILE = 'private/secret.txt';
export const SECRET_WORDS = 'secret words';
export const ELSEWHERE_FILE = 'elsewhere.txt';
export const ELSEWHERE_WORDS = 'other Workspace';

/** What a door must answer: the shared file itself, or a refusal. */
export type TraversalAnswer = 'shared file' | 'bad-request/invalid-path' | 'not-found/file-not-found';

const INVALID = 'bad-request/invalid-path';
const NOT_FOUND = 'not-found/file-not-found';

export interface TraversalCase {
  /**
   * The path as written in a request, `{other}` standing for the other Workspace's id. A link's
   * endpoints receive it raw in the URL, percent-decoded once (docs/sharing.md#paths-inside-a-link);
   * the Workspace doors are given it as a path and encode it themselves, so a `%` in it is a `%`
   * in a name there.
   */
  spelling: string;
  /** What it tries to reach: the shared file, something beside the shared folder, or the other Workspace. */
  aims: 'inside' | 'beside' | 'elsewhere';
  /** A share link of `shared`: its endpoints refuse `''`, `.` and `..` segments, and take the first segment as the shared folder's name, exactly. */
  link: TraversalAnswer;
  /**
   * A door that takes each segment as a name and refuses `.` and `..` (the file session, REST,
   * WebDAV). A Workspace path's empty segments (a leading or doubled `/`) are no names: they are
   * dropped, where a link refuses them.
   */
  namesDoor: TraversalAnswer;
}

/** The spellings. A door that resolves dot segments as POSIX paths (SFTP) is answered by resolvedAnswer. */
export const TRAVERSAL_CASES: readonly TraversalCase[] = [
  // What the caller may reach, spelled plainly and not.
  { spelling: 'shared/doc.txt', aims: 'inside', link: 'shared file', namesDoor: 'shared file' },
  { spelling: 'shared/DOC.TXT', aims: 'inside', link: 'shared file', namesDoor: 'shared file' },
  { spelling: 'shared/./doc.txt', aims: 'inside', link: INVALID, namesDoor: INVALID },
  { spelling: '../../shared/./doc.txt', aims: 'inside', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared//doc.txt', aims: 'inside', link: INVALID, namesDoor: 'shared file' },
  // `%2F` inside a segment is a `/` to a link; to a Workspace door it is three characters of a name.
  { spelling: 'shared%2fdoc.txt', aims: 'inside', link: 'shared file', namesDoor: NOT_FOUND },
  { spelling: 'shared%2Fdoc.txt', aims: 'inside', link: 'shared file', namesDoor: NOT_FOUND },
  // The shared folder's name matches exactly at a link's top; a Workspace matches names whatever their case.
  { spelling: 'SHARED/doc.txt', aims: 'inside', link: NOT_FOUND, namesDoor: 'shared file' },

  // Beside the shared folder, in the same Workspace.
  { spelling: 'private/secret.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'private/nothing.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'PRIVATE/Secret.TXT', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: '/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: '//private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared/../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared/../../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: '../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared/sub/../../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared/./../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared//../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  { spelling: '%2e%2e/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared/%2e%2e/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared/%2E%2e/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared/.%2e/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared%2f..%2fprivate%2fsecret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared%2F%2E%2E%2Fprivate%2Fsecret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: '%2fprivate%2fsecret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared%2f%2fdoc.txt', aims: 'inside', link: INVALID, namesDoor: NOT_FOUND },
  // A backslash is a character of a name, never a separator.
  { spelling: 'shared%5c..%5cprivate%5csecret.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'shared/..%5c..%5cprivate%5csecret.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: '%5cprivate%5csecret.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  // A NUL ends nothing: it is a character no name may hold.
  { spelling: 'shared/doc.txt%00', aims: 'inside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'shared/%00/../../private/secret.txt', aims: 'beside', link: INVALID, namesDoor: INVALID },
  // Overlong UTF-8 for `.` (C0 AE) is no UTF-8 at all.
  { spelling: 'shared/%c0%ae%c0%ae/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: '%c0%ae%c0%ae/private/secret.txt', aims: 'beside', link: INVALID, namesDoor: NOT_FOUND },
  // A first segment that begins as the shared name, or extends it, names another folder.
  { spelling: 'shared2/doc.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'share/doc.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'shared%20(2)/doc.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: 'shared.txt', aims: 'beside', link: NOT_FOUND, namesDoor: NOT_FOUND },

  // In the other Workspace.
  { spelling: '_/Workspaces/{other}/elsewhere.txt', aims: 'elsewhere', link: NOT_FOUND, namesDoor: NOT_FOUND },
  { spelling: '/_/Workspaces/{other}/elsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: '%2f_%2fWorkspaces%2f{other}%2felsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: NOT_FOUND },
  // One folder up from a Workspace's root is `_/Workspaces`, where the other Workspace is.
  { spelling: '../{other}/elsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: INVALID },
  { spelling: 'shared/../../{other}/elsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: INVALID },
  { spelling: '../../../../{other}/elsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: INVALID },
  { spelling: '%2e%2e%2f{other}%2felsewhere.txt', aims: 'elsewhere', link: INVALID, namesDoor: NOT_FOUND },
  { spelling: 'elsewhere.txt', aims: 'elsewhere', link: NOT_FOUND, namesDoor: NOT_FOUND },
];

/** A case's spelling with the other Workspace's id in it. */
export function spellingOf(traversal: TraversalCase, otherWorkspace: number): string {
  return traversal.spelling.replaceAll('{other}', String(otherWorkspace));
}

/**
 * What a door that resolves `.` and `..` as POSIX paths do, never above the caller's `/` (SFTP),
 * answers: the shared file where the resolved path names it (as the Workspace matches names,
 * whatever their case), else nothing the caller reaches.
 */
export function resolvedAnswer(spelling: string): TraversalAnswer {
  const resolved = posix.normalize(`/${spelling}`).slice(1);
  return resolved.toLowerCase() === SHARED_FILE ? 'shared file' : NOT_FOUND;
}
