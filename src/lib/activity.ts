import { EventEmitter } from 'node:events';

/**
 * What the features and the doors report for counting (logins, lockouts, bytes moved, SFTP
 * sessions, WebDAV requests), without knowing who counts: the metrics of the REST door listen
 * here, so no feature or other door imports a metrics library or another door. Emitting with no
 * listener costs next to nothing, so they always emit.
 */
export interface ActivityEvents {
  'login-succeeded': [];
  'login-failed': [];
  /** A username was locked out after too many failures. */
  'lockout-started': [];
  /** A file's new contents were committed. */
  'bytes-uploaded': [bytes: number];
  /** A download stream finished sending. */
  'bytes-downloaded': [bytes: number];
  /** An SFTP connection signed in: a session began. */
  'sftp-session-started': [];
  /** A signed-in SFTP connection closed. */
  'sftp-session-ended': [];
  /** An SFTP connection was turned away: over the connection limits, or it closed after failed sign-ins without one that succeeded. */
  'sftp-session-refused': [];
  /** A WebDAV request was answered: its method, status and how long it took. */
  'webdav-request': [method: string, status: number, seconds: number];
}

export const activity = new EventEmitter<ActivityEvents>();
// Each app built in one process (tests build many) listens once; they remove their listeners on close.
activity.setMaxListeners(0);
