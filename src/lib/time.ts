/** Contract 1.1: times are ISO-8601 UTC strings without fractions (`2026-01-02T03:04:05Z`). */
export function isoTime(epochMs: number): string;
export function isoTime(epochMs: number | null): string | null;
export function isoTime(epochMs: number | null): string | null {
  if (epochMs === null) return null;
  const seconds = Math.floor(epochMs / 1000);
  // Years 1970 to 9999 by integer arithmetic: several times cheaper than Date#toISOString, and a
  // listing formats two times per entry. Anything else takes the general path.
  if (seconds < 0 || seconds >= MAX_FAST_SECONDS) return `${new Date(seconds * 1000).toISOString().slice(0, -5)}Z`;
  const days = Math.floor(seconds / 86_400);
  const secondOfDay = seconds - days * 86_400;
  const { year, month, day } = civilFromDays(days);
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay % 3600) / 60);
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(secondOfDay % 60)}Z`;
}

/** 10000-01-01T00:00:00Z: from there on years need more than four digits. */
const MAX_FAST_SECONDS = 253_402_300_800;

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * The proleptic Gregorian date of a day count since 1970-01-01, for days ≥ 0
 * (H. Hinnant's `civil_from_days`, http://howardhinnant.github.io/date_algorithms.html).
 */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The current time, injectable so tests can move it instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** One day in milliseconds: retention periods and expiries are set in days. */
export const DAY_MS = 24 * 60 * 60 * 1000;
