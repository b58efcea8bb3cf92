/**
 * SFTP paths as the file session takes them. The client sees its home Workspace's root (or the
 * site root) as `/`, and every path is resolved below it: `.` and `..` are resolved here,
 * lexically, as REALPATH answers them (`..` never climbs above `/`), and a relative path is taken
 * from the working folder, the only one SFTP v3 has: the landing folder (the user's `user_root`,
 * or `/`), which is what a client's REALPATH of `.` learns as its starting folder.
 */
export function normalizeSftpPath(input: string, workingFolder = '/'): string {
  const absolute = input.startsWith('/') ? input : `${workingFolder}/${input}`;
  const segments: string[] = [];
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** The session path of an SFTP path: relative to `/` (the home root), '' for it. */
export function sessionPathOf(input: string, workingFolder = '/'): string {
  return normalizeSftpPath(input, workingFolder).slice(1);
}

/** The SFTP path of a path as the session shows it. */
export function sftpPathOf(sessionPath: string): string {
  return `/${sessionPath}`;
}

