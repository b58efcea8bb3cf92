import type { Socket } from 'node:net';

/** How long, and how many at once, connections may stay unsigned-in (docs/sftp.md, "Limits"). */
export interface SignInLimitSettings {
  /** Connections from one address not yet signed in; one more is closed at once. */
  perAddress: number;
  /** Connections not yet signed in, from everywhere. */
  total: number;
  /** From the first byte to a successful sign-in; past it the connection is closed. */
  deadlineMs: number;
  /** Failed sign-in attempts one connection may make before it is closed. */
  attemptsPerConnection: number;
}

// Sync tools open many connections at once (rclone: one per transfer and per checker), so one
// address may have a few dozen signing in at a time.
export const DEFAULT_SIGN_IN_LIMITS: SignInLimitSettings = { perAddress: 32, total: 256, deadlineMs: 30_000, attemptsPerConnection: 6 };

/** One admitted connection until it signs in: `signedIn` lifts the limits, closing releases it. */
export interface Admission {
  signedIn(): void;
}

/**
 * Keeps connections that have not signed in from piling up: a client that opens many and sends
 * nothing (or dawdles through the handshake) ties up sockets and memory without ever proving who
 * it is. Counted at the TCP level, before SSH's own header, so a silent connection counts too.
 * Signed-in connections are not limited here; they are a user's own, and their work is bounded
 * per session (handles, pending requests).
 */
export class SignInLimits {
  private readonly pending = new Map<string, number>();
  private total = 0;

  constructor(private readonly settings: SignInLimitSettings) {}

  /** Admits a new connection, or answers undefined when it must be closed at once. */
  admit(socket: Socket): Admission | undefined {
    const address = socket.remoteAddress ?? 'unknown';
    const fromHere = this.pending.get(address) ?? 0;
    if (fromHere >= this.settings.perAddress || this.total >= this.settings.total) return undefined;
    this.pending.set(address, fromHere + 1);
    this.total += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(deadline);
      this.total -= 1;
      const left = (this.pending.get(address) ?? 1) - 1;
      if (left === 0) this.pending.delete(address);
      else this.pending.set(address, left);
    };
    const deadline = setTimeout(() => socket.destroy(), this.settings.deadlineMs);
    deadline.unref();
    socket.once('close', release);
    return { signedIn: release };
  }

  get attemptsPerConnection(): number {
    return this.settings.attemptsPerConnection;
  }
}
