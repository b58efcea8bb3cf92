/** Contract 1.1: times are ISO-8601 UTC strings without fractions (`2026-01-02T03:04:05Z`). */
export function isoTime(epochMs: number): string;
export function isoTime(epochMs: number | null): string | null;
export function isoTime(epochMs: number | null): string | null {
  if (epochMs === null) return null;
  // toISOString always ends in `.sssZ`; cutting it off is several times cheaper than a regular
  // expression, and a listing formats two times per entry.
  return `${new Date(epochMs).toISOString().slice(0, -5)}Z`;
}

/** The current time, injectable so tests can move it instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
