import type { SFTPWrapper } from 'ssh2';

/**
 * How long a signed-in connection may go without an SFTP request before the server closes it
 * (docs/sftp.md, "Limits"). A client that signed in and walked away (a crashed script, a laptop
 * closed mid-session) would otherwise hold its connection and session for ever. SSH keepalives
 * are no request: a client that only keeps the line up is idle too.
 */
export const SFTP_IDLE_TIMEOUT_MS = 15 * 60_000;

/** After this, a connection told to close that has not gone is cut (a peer that stopped reading). */
const CLOSE_GRACE_MS = 5_000;

/** Every request a client can send: any of them is activity. */
const REQUESTS = ['REALPATH', 'STAT', 'LSTAT', 'FSTAT', 'OPENDIR', 'READDIR', 'OPEN', 'READ', 'WRITE', 'CLOSE', 'MKDIR', 'RMDIR',
  'REMOVE', 'RENAME', 'SETSTAT', 'FSETSTAT', 'EXTENDED', 'SYMLINK', 'READLINK'] as const;

/**
 * Closes a signed-in connection after `timeoutMs` without a request. Started at sign-in (a client
 * that never opens the SFTP subsystem is idle from then on); each request of its SFTP sessions
 * starts the count again.
 */
export class IdleTimeout {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly timeoutMs: number, private readonly close: () => void, private readonly cut: () => void) {
    this.touch();
  }

  /** Counts every request of this SFTP session as activity. */
  watch(sftp: SFTPWrapper): void {
    for (const request of REQUESTS) sftp.on(request as 'STAT', () => this.touch());
  }

  touch(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.close();
      setTimeout(this.cut, CLOSE_GRACE_MS).unref();
    }, this.timeoutMs);
    this.timer.unref();
  }

  /** The connection ended: nothing more to watch. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
