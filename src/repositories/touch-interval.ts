/**
 * A key's last use and a session's last activity are written at most this often, so that a busy
 * credential is not a database write on every request. The idle timeout is exact to this much.
 */
export const TOUCH_INTERVAL_MS = 60_000;
