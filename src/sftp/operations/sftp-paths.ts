/**
 * SFTP paths as the file session takes them. The client sees its landing folder (its home
 * Workspace's root, or the site root) as `/`, and every path is resolved below it: `.` and `..`
 * are resolved here, lexically, as REALPATH answers them (`..` never climbs above `/`), and a
 * relative path is taken from `/`, the only working folder SFTP v3 has.
 */
export function normalizeSftpPath(input: string): string {
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** The session path of an SFTP path: relative to the landing folder, '' for it. */
export function sessionPathOf(input: string): string {
  return normalizeSftpPath(input).slice(1);
}

/** The SFTP path of a path as the session shows it. */
export function sftpPathOf(sessionPath: string): string {
  return `/${sessionPath}`;
}

