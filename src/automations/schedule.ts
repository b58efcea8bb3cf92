import type { ModelErrors } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { lookUpTimeZone } from './time-zones.js';
import { instantOfWallClock, wallClockAt } from './zoned-time.js';
import { DAY_MS } from '../lib/time.js';

/**
 * When a scheduled automation is due. Two triggers are scheduled:
 *
 * - `daily` with an `interval`: `day` (every day), `week` (on the days of the week in
 *   `recurring_days`, 0 = Sunday), `month`, `quarter`, `year` (on those days of the month, quarter
 *   or year, counted from 1; a period shorter than the day runs on its last day), and `week_end`,
 *   `month_end`, `quarter_end`, `year_end` (counted back from the period's last day: 1 is the last
 *   day, 2 the day before). Without a recurring day, the first day of the period (Sunday, the 1st)
 *   or, for the `_end` intervals, its last.
 * - `custom_schedule`: on the days of the week in `schedule_days_of_week` (all of them when none).
 *
 * Either runs at each of `schedule_times_of_day` ("HH:MM", 24-hour; 00:00 when none) on the wall
 * clock of `schedule_time_zone` (a Rails or IANA name; UTC when unset). A time the clocks skip on a
 * spring-forward day runs once, when they jump; a time they pass twice on a fall-back day runs
 * once, the first time.
 */

export const SCHEDULE_INTERVALS = ['day', 'week', 'week_end', 'month', 'month_end', 'quarter', 'quarter_end', 'year', 'year_end'] as const;
export type ScheduleInterval = (typeof SCHEDULE_INTERVALS)[number];

/** An automation's schedule fields, as the API names them. */
export interface AutomationSchedule {
  trigger: 'daily' | 'custom_schedule';
  interval?: string | null;
  recurring_day?: number | null;
  recurring_days?: readonly number[] | null;
  schedule_days_of_week?: readonly number[] | null;
  schedule_times_of_day?: readonly string[] | null;
  schedule_time_zone?: string | null;
}

/** A schedule read and checked: what the due times are computed from. */
interface Plan {
  interval: ScheduleInterval | 'days_of_week';
  days: readonly number[];
  /** Minutes after midnight, ascending, each once. */
  times: readonly number[];
  timeZone: string;
}

const TIME_OF_DAY = /^([01]?[0-9]|2[0-3]):([0-5][0-9])$/;

/** The largest recurring day of each interval: the longest such period has this many days. */
const LONGEST: Record<ScheduleInterval, number> = {
  day: 1,
  week: 6,
  week_end: 7,
  month: 31,
  month_end: 31,
  quarter: 92,
  quarter_end: 92,
  year: 366,
  year_end: 366,
};

function isInterval(value: string): value is ScheduleInterval {
  return (SCHEDULE_INTERVALS as readonly string[]).includes(value);
}

function readPlan(schedule: AutomationSchedule): { plan: Plan | undefined; problems: ModelErrors } {
  const problems: ModelErrors = {};
  const problem = (field: string, message: string) => {
    (problems[field] ??= []).push(message);
  };
  const zone = lookUpTimeZone(schedule.schedule_time_zone);
  if (!zone.ok) problem('schedule_time_zone', zone.problem);
  const times = new Set<number>();
  for (const text of schedule.schedule_times_of_day ?? []) {
    const match = TIME_OF_DAY.exec(text);
    if (match === null) problem('schedule_times_of_day', `has "${text}", which is no time of day as HH:MM (24-hour, 00:00 to 23:59)`);
    else times.add(Number(match[1]) * 60 + Number(match[2]));
  }
  if (times.size === 0) times.add(0);
  let interval: Plan['interval'] = 'days_of_week';
  let days: number[] = [];
  if (schedule.trigger === 'custom_schedule') {
    days = [...(schedule.schedule_days_of_week ?? [])];
    for (const day of days) {
      if (!Number.isInteger(day) || day < 0 || day > 6) problem('schedule_days_of_week', `has ${day}, which is no day of the week (0 is Sunday, 6 Saturday)`);
    }
    if (days.length === 0) days = [0, 1, 2, 3, 4, 5, 6];
  } else {
    const given = schedule.interval ?? '';
    if (!isInterval(given)) {
      problem('interval', `must be one of ${SCHEDULE_INTERVALS.join(', ')} for a daily trigger`);
    } else {
      interval = given;
      const plural = schedule.recurring_days ?? [];
      days = plural.length > 0 ? [...plural] : schedule.recurring_day !== null && schedule.recurring_day !== undefined ? [schedule.recurring_day] : [];
      const field = plural.length > 0 ? 'recurring_days' : 'recurring_day';
      const lowest = given === 'week' ? 0 : 1;
      for (const day of days) {
        if (given !== 'day' && (!Number.isInteger(day) || day < lowest || day > LONGEST[given])) {
          problem(field, `has ${day}, which is no day of a ${given.replace('_end', '')} (${lowest} to ${LONGEST[given]}${given.endsWith('_end') ? ', counted back from its last day' : ''})`);
        }
      }
      if (days.length === 0) days = [given === 'week' ? 0 : 1];
    }
  }
  const ok = Object.keys(problems).length === 0 && zone.ok;
  return {
    plan: ok ? { interval, days: [...new Set(days)], times: [...times].sort((a, b) => a - b), timeZone: zone.iana } : undefined,
    problems,
  };
}

/** What is wrong with a schedule's fields, by field; empty when it can be run. */
export function scheduleProblems(schedule: AutomationSchedule): ModelErrors {
  return readPlan(schedule).problems;
}

function planOf(schedule: AutomationSchedule): Plan {
  const { plan, problems } = readPlan(schedule);
  if (plan === undefined) throw errors.paramsInvalid(problems);
  return plan;
}

/** A calendar date as the UTC midnight of the same date, for day arithmetic free of any zone. */
function dateParts(date: number): { year: number; month: number; day: number; weekday: number } {
  const d = new Date(date);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}

/** Day number of `date` within the period starting at `start` and ending before `end` (1-based), and the period's length. */
function placeIn(date: number, start: number, end: number): { nth: number; length: number } {
  return { nth: Math.round((date - start) / DAY_MS) + 1, length: Math.round((end - start) / DAY_MS) };
}

function isDue(plan: Plan, date: number): boolean {
  const { year, month, weekday } = dateParts(date);
  const period = (): { nth: number; length: number } => {
    switch (plan.interval) {
      case 'month':
      case 'month_end':
        return placeIn(date, Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1));
      case 'quarter':
      case 'quarter_end': {
        const first = Math.floor((month - 1) / 3) * 3;
        return placeIn(date, Date.UTC(year, first, 1), Date.UTC(year, first + 3, 1));
      }
      default:
        return placeIn(date, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    }
  };
  switch (plan.interval) {
    case 'day':
      return true;
    case 'days_of_week':
    case 'week':
      return plan.days.includes(weekday);
    case 'week_end':
      return plan.days.some((back) => weekday === 7 - back);
    case 'month':
    case 'quarter':
    case 'year': {
      const { nth, length } = period();
      return plan.days.some((wanted) => Math.min(wanted, length) === nth);
    }
    case 'month_end':
    case 'quarter_end':
    case 'year_end': {
      const { nth, length } = period();
      return plan.days.some((back) => Math.max(length - back + 1, 1) === nth);
    }
  }
}

/** Days in a row without a due day after which a schedule is taken to have none (it cannot happen: a year holds every day). */
const GIVE_UP_AFTER_DAYS = 800;

/** Every due time after `after` (not at it), in order, each once, for as long as asked. */
function* dueTimesAfter(plan: Plan, after: Date): Generator<Date> {
  const start = wallClockAt(after, plan.timeZone);
  // From the day before: a time of the previous local date can still be after `after` only if
  // clocks moved, and starting early costs one day's check.
  let date = Date.UTC(start.year, start.month - 1, start.day) - DAY_MS;
  let last = after.getTime();
  let idle = 0;
  while (idle < GIVE_UP_AFTER_DAYS) {
    if (isDue(plan, date)) {
      const { year, month, day } = dateParts(date);
      for (const minutes of plan.times) {
        const instant = instantOfWallClock({ year, month, day, hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0 }, plan.timeZone);
        // Two times the clocks skip both land on the jump: it runs once.
        if (instant.getTime() > last) {
          last = instant.getTime();
          idle = 0;
          yield instant;
        }
      }
    }
    date += DAY_MS;
    idle += 1;
  }
}

/** The next `count` times the schedule is due, after `after`. */
export function nextDueTimes(schedule: AutomationSchedule, after: Date, count: number): Date[] {
  const plan = planOf(schedule);
  const due: Date[] = [];
  if (count <= 0) return due;
  for (const instant of dueTimesAfter(plan, after)) {
    due.push(instant);
    if (due.length >= count) break;
  }
  return due;
}

/**
 * The times the schedule was due after `from` and up to `to` (both instants; `to` included): what
 * a runner that was down from `from` to `to` missed. At most `limit`, the earliest first.
 */
export function dueTimesBetween(schedule: AutomationSchedule, from: Date, to: Date, limit = 1000): Date[] {
  const plan = planOf(schedule);
  const due: Date[] = [];
  for (const instant of dueTimesAfter(plan, from)) {
    if (instant.getTime() > to.getTime() || due.length >= limit) break;
    due.push(instant);
  }
  return due;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;
}

function fromEnd(back: number): string {
  if (back === 1) return 'the last day';
  return `${back - 1} day${back === 2 ? '' : 's'} before the last day`;
}

/**
 * The schedule in words, as the API's human_readable_schedule shows it: "Every Monday and
 * Wednesday at 06:30 and 14:30, Eastern Time (US & Canada)". The time zone is named as given.
 */
export function humanReadableSchedule(schedule: AutomationSchedule): string {
  const plan = planOf(schedule);
  const sorted = [...plan.days].sort((a, b) => a - b);
  const times = plan.times.map((minutes) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);
  const zone = schedule.schedule_time_zone === null || schedule.schedule_time_zone === undefined || schedule.schedule_time_zone === '' ? 'UTC' : schedule.schedule_time_zone;
  let when: string;
  switch (plan.interval) {
    case 'day':
      when = 'Every day';
      break;
    case 'days_of_week':
    case 'week':
      when = sorted.length === 7 ? 'Every day' : `Every ${listed(sorted.map((day) => WEEKDAYS[day] as string))}`;
      break;
    case 'week_end':
      when = `Every ${listed([...sorted].reverse().map((back) => WEEKDAYS[7 - back] as string))}`;
      break;
    case 'month':
    case 'quarter':
    case 'year': {
      const longest = { month: 28, quarter: 90, year: 365 }[plan.interval];
      const shorter = sorted.some((day) => day > longest) ? ` (the last day when the ${plan.interval} is shorter)` : '';
      when = `Every ${plan.interval} on day${sorted.length === 1 ? '' : 's'} ${listed(sorted.map(String))}${shorter}`;
      break;
    }
    case 'month_end':
    case 'quarter_end':
    case 'year_end':
      when = `Every ${plan.interval.replace('_end', '')} on ${listed(sorted.map(fromEnd))}`;
      break;
  }
  return `${when} at ${listed(times)}, ${zone}`;
}
