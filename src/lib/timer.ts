/**
 * Waiting for real time, injectable like the Clock: the server passes `systemTimer`, tests a
 * timer they fire by hand, so polling and heartbeats are tested without sleeping.
 */
export interface Timer {
  /** Runs `run` once after `ms` milliseconds; the answer cancels it if it has not run yet. */
  after(ms: number, run: () => void): () => void;
}

/** Node's own timers, which never keep the process alive by themselves. */
export const systemTimer: Timer = {
  after(ms, run) {
    const timeout = setTimeout(run, ms);
    timeout.unref();
    return () => clearTimeout(timeout);
  },
};
