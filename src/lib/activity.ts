import { EventEmitter } from 'node:events';

/**
 * What the features report for counting (logins, lockouts, bytes moved), without knowing who
 * counts: the metrics of a front door listen here, so no feature imports a metrics library or
 * a protocol. Emitting with no listener costs next to nothing, so the features always emit.
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
}

export const activity = new EventEmitter<ActivityEvents>();
// Each app built in one process (tests build many) listens once; they remove their listeners on close.
activity.setMaxListeners(0);
