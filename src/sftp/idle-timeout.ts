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
 * Where the idle count waits: the process's timers, or a test's that it moves by hand, so the
 * timeout is tested without waiting for it.
 */
export interface IdleTimers {
  start(run: () => void, ms: number): unknown;
  cancel(timer: unknown): void;
}

/** The process's timers, which never keep it alive by themselves. */
export const systemIdleTimers: IdleTimers = {
  start: (run, ms) => setTimeout(run, ms).unref(),
  cancel: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * Closes a signed-in connection after `timeoutMs` without a request. Started at sign-in (a client
 * that never opens the SFTP subsystem is idle from then on); each request of its SFTP sessions
 * starts the count again.
 */
export class IdleTimeout {
  private timer: unknown;
  private stopped = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly close: () => void,
    private readonly cut: () => void,
    private readonly timers: IdleTimers = systemIdleTimers,
  ) {
    this.touch();
  }

  /** Counts every request of this SFTP session as activity. */
  watch(sftp: SFTPWrapper): void {
    for (const request of REQUESTS) sftp.on(request as 'STAT', () => this.touch());
  }

  touch(): void {
    if (this.stopped) return;
    if (this.timer !== undefined) this.timers.cancel(this.timer);
    this.timer = this.timers.start(() => {
      this.close();
      this.timers.start(this.cut, CLOSE_GRACE_MS);
    }, this.timeoutMs);
  }

  /** The connection ended: nothing more to watch. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.cancel(this.timer);
  }
}
