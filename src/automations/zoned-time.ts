/**
 * Wall-clock time in an IANA time zone, with nothing but Intl: what a clock in the zone shows at
 * an instant, and the instant a wall-clock time stands for (DST gaps and overlaps included).
 */

export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** What a clock in `timeZone` shows at `instant`. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year as number,
    month: parts.month as number,
    day: parts.day as number,
    hour: parts.hour as number,
    minute: parts.minute as number,
    second: parts.second as number,
  };
}

function asUtcMillis(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
}

/** The zone's offset from UTC at `instant`, in milliseconds (east positive). */
export function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return asUtcMillis(wallClockAt(new Date(whole), timeZone)) - whole;
}

/**
 * The instant a wall-clock time in `timeZone` stands for. When the clocks go back and the time
 * happens twice, the first of the two; when they go forward and it never happens, the instant
 * they jump (a 02:30 skipped from 02:00 to 03:00 gives 03:00), so the time is neither lost nor
 * doubled. Offsets change at most once within a day either side, which every zone keeps to.
 */
export function instantOfWallClock(clock: WallClock, timeZone: string): Date {
  const asUtc = asUtcMillis(clock);
  const day = 24 * 60 * 60 * 1000;
  const before = asUtc - offsetAt(asUtc - day, timeZone);
  const after = asUtc - offsetAt(asUtc + day, timeZone);
  const shows = (instant: number) => asUtcMillis(wallClockAt(new Date(instant), timeZone)) === asUtc;
  const valid = [before, after].filter(shows).sort((a, b) => a - b);
  if (valid.length > 0) return new Date(valid[0] as number);
  // A gap: the clocks jump between `after` (the time less the jump, still before it) and
  // `before` (the time plus the jump). The first instant with the later offset is the jump.
  let low = Math.min(before, after);
  let high = Math.max(before, after);
  const lowOffset = offsetAt(low, timeZone);
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (offsetAt(middle, timeZone) === lowOffset) low = middle;
    else high = middle;
  }
  return new Date(high);
}

/** `+hhmm` or `-hhmm`, as strftime's %z writes the zone's offset at `instant`. */
export function offsetText(instant: Date, timeZone: string): string {
  const minutes = Math.round(offsetAt(instant.getTime(), timeZone) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}
