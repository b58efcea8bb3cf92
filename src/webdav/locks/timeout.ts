// The Timeout request header of LOCK (RFC 4918 10.7): `Infinite`, `Second-N`, or a list of them
// in the client's order of preference.

/**
 * The longest a lock lasts without a refresh: an hour. A client that crashed holding a lock blocks
 * others at most this long (its owner or an administrator can UNLOCK it sooner); clients that keep
 * a file open refresh well before (Windows and Office every few minutes, Finder every 10).
 */
export const MAX_LOCK_SECONDS = 3600;

/** Seconds a lock lasts when the client names no timeout, or asks for Infinite. */
export const DEFAULT_LOCK_SECONDS = MAX_LOCK_SECONDS;

/** The timeout granted for a Timeout header: the first value understood, at most MAX_LOCK_SECONDS; unknown values are skipped. */
export function grantedTimeout(header: string | undefined): number {
  if (header === undefined) return DEFAULT_LOCK_SECONDS;
  for (const raw of header.split(',')) {
    const value = raw.trim();
    if (value.toLowerCase() === 'infinite') return DEFAULT_LOCK_SECONDS;
    const seconds = /^second-(\d{1,12})$/i.exec(value);
    if (seconds !== null) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(seconds[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}
