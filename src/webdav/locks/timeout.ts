// The Timeout request header of LOCK (RFC 4918 10.7): `Infinite`, `Second-N`, or a list of them
// in the client's order of preference. How long a lock may last is the file session's to decide
// (files/resource-locks.ts); this only reads what the client asks.

/** The seconds a Timeout header asks for: its first value understood; undefined for `Infinite`, for none, or without the header. */
export function requestedTimeout(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  for (const raw of header.split(',')) {
    const value = raw.trim();
    if (value.toLowerCase() === 'infinite') return undefined;
    const seconds = /^second-(\d{1,12})$/i.exec(value);
    if (seconds !== null) return Number(seconds[1]);
  }
  return undefined;
}
