import type { Attributes } from 'ssh2';
import type { FileEntry } from '../../files/index.js';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFMT = 0o170000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182 * 24 * 60 * 60 * 1000;

/**
 * An entry's SFTP attributes. The type bits must be there or clients take folders for files. The
 * permission bits show the caller's own capabilities (read, write, list) in the owner's place, so
 * a client's `ls -l` says what the user may do; group and other are empty, there being no such
 * thing here. Owner and group are 0: Atrium's users are not POSIX users. The time is the one
 * every file protocol shows (FileEntry.modifiedAt): a client's own time wherever it was given.
 */
export function attributesOf(entry: FileEntry): Attributes {
  const can = new Set(entry.capabilities);
  const seconds = Math.floor(entry.modifiedAt / 1000);
  const mode = entry.type === 'directory'
    ? S_IFDIR | (can.has('list') || can.has('read') ? 0o500 : 0o100) | (can.has('write') ? 0o200 : 0)
    : S_IFREG | (can.has('read') ? 0o400 : 0) | (can.has('write') || can.has('delete') ? 0o200 : 0);
  return { mode, uid: 0, gid: 0, size: entry.size ?? 0, atime: seconds, mtime: seconds };
}

/**
 * The attributes of a file the session is writing and has not closed: a file of `size` bytes so
 * far, which the writer may read and write, modified at `mtimeMs` (now, unless the client set it).
 */
export function attributesOfFileBeingWritten(size: number, mtimeMs: number): Attributes {
  const seconds = Math.floor(mtimeMs / 1000);
  return { mode: S_IFREG | 0o600, uid: 0, gid: 0, size, atime: seconds, mtime: seconds };
}

/** The `ls -l` line of an entry with these attributes, as READDIR carries it (FileZilla and WinSCP show it). */
export function longnameOf(name: string, attributes: Attributes, now: number): string {
  const mode = attributes.mode;
  const bits = [0o400, 0o200, 0o100, 0o040, 0o020, 0o010, 0o004, 0o002, 0o001];
  const letters = 'rwxrwxrwx';
  const permissions = bits.map((bit, i) => ((mode & bit) !== 0 ? letters[i] : '-')).join('');
  const mtime = attributes.mtime * 1000;
  const date = new Date(mtime);
  const day = String(date.getUTCDate()).padStart(2, ' ');
  const when = Math.abs(now - mtime) < HALF_YEAR_MS
    ? `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`
    : ` ${date.getUTCFullYear()}`;
  const size = String(attributes.size).padStart(10, ' ');
  return `${(mode & S_IFMT) === S_IFDIR ? 'd' : '-'}${permissions}    1 atrium   atrium   ${size} ${MONTHS[date.getUTCMonth()]} ${day} ${when} ${name}`;
}
