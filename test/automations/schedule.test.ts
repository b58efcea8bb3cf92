import { describe, expect, it } from 'vitest';
import { dueTimesBetween, humanReadableSchedule, nextDueTimes, scheduleProblems, type AutomationSchedule } from '../../src/automations/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('next due times', () => {
  it.each<[string, AutomationSchedule, string, number, string[]]>([
    ['daily, default midnight UTC', { trigger: 'daily', interval: 'day' }, '2026-01-01T10:00:00Z', 3, ['2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z', '2026-01-04T00:00:00.000Z']],
    ['daily, not the instant itself', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['10:00'] }, '2026-01-01T10:00:00Z', 1, ['2026-01-02T10:00:00.000Z']],
    ['daily, two times, given unsorted', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['18:00', '06:00', '6:00'] }, '2026-01-01T07:00:00Z', 3, ['2026-01-01T18:00:00.000Z', '2026-01-02T06:00:00.000Z', '2026-01-02T18:00:00.000Z']],
    ['daily in New York (winter)', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['09:00'], schedule_time_zone: 'Eastern Time (US & Canada)' }, '2026-01-01T00:00:00Z', 1, ['2026-01-01T14:00:00.000Z']],
    ['week, default Sunday', { trigger: 'daily', interval: 'week' }, '2026-01-01T00:00:00Z', 2, ['2026-01-04T00:00:00.000Z', '2026-01-11T00:00:00.000Z']],
    ['week, Monday and Friday', { trigger: 'daily', interval: 'week', recurring_days: [5, 1] }, '2026-01-01T00:00:00Z', 3, ['2026-01-02T00:00:00.000Z', '2026-01-05T00:00:00.000Z', '2026-01-09T00:00:00.000Z']],
    ['week_end: Saturday', { trigger: 'daily', interval: 'week_end' }, '2026-01-01T00:00:00Z', 1, ['2026-01-03T00:00:00.000Z']],
    ['week_end, 2: Friday', { trigger: 'daily', interval: 'week_end', recurring_day: 2 }, '2026-01-01T00:00:00Z', 1, ['2026-01-02T00:00:00.000Z']],
    ['month, the 31st or the last day', { trigger: 'daily', interval: 'month', recurring_day: 31 }, '2026-01-15T00:00:00Z', 4, ['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z']],
    ['month, 30th in a leap February', { trigger: 'daily', interval: 'month', recurring_day: 30 }, '2028-02-01T00:00:00Z', 1, ['2028-02-29T00:00:00.000Z']],
    ['month, 1st and 15th', { trigger: 'daily', interval: 'month', recurring_days: [1, 15] }, '2026-01-10T00:00:00Z', 3, ['2026-01-15T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-02-15T00:00:00.000Z']],
    ['month_end', { trigger: 'daily', interval: 'month_end' }, '2026-01-31T00:00:00Z', 2, ['2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z']],
    ['month_end, 3 back', { trigger: 'daily', interval: 'month_end', recurring_day: 3 }, '2026-02-01T00:00:00Z', 1, ['2026-02-26T00:00:00.000Z']],
    ['quarter, default first day', { trigger: 'daily', interval: 'quarter' }, '2026-02-01T00:00:00Z', 2, ['2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']],
    ['quarter, day 92 or the last', { trigger: 'daily', interval: 'quarter', recurring_day: 92 }, '2026-01-01T00:00:00Z', 2, ['2026-03-31T00:00:00.000Z', '2026-06-30T00:00:00.000Z']],
    ['quarter_end', { trigger: 'daily', interval: 'quarter_end' }, '2026-01-01T00:00:00Z', 2, ['2026-03-31T00:00:00.000Z', '2026-06-30T00:00:00.000Z']],
    ['year, day 60', { trigger: 'daily', interval: 'year', recurring_day: 60 }, '2026-01-01T00:00:00Z', 2, ['2026-03-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z']],
    ['year, day 366 or the last', { trigger: 'daily', interval: 'year', recurring_day: 366 }, '2026-01-01T00:00:00Z', 2, ['2026-12-31T00:00:00.000Z', '2027-12-31T00:00:00.000Z']],
    ['year_end', { trigger: 'daily', interval: 'year_end', schedule_times_of_day: ['23:30'] }, '2026-06-01T00:00:00Z', 1, ['2026-12-31T23:30:00.000Z']],
    ['custom: Monday and Wednesday, two times, Eastern', { trigger: 'custom_schedule', schedule_days_of_week: [1, 3], schedule_times_of_day: ['06:30', '14:30'], schedule_time_zone: 'Eastern Time (US & Canada)' }, '2026-01-05T12:00:00Z', 3, ['2026-01-05T19:30:00.000Z', '2026-01-07T11:30:00.000Z', '2026-01-07T19:30:00.000Z']],
    ['custom: every day when no days', { trigger: 'custom_schedule', schedule_times_of_day: ['12:00'] }, '2026-01-05T12:00:00Z', 2, ['2026-01-06T12:00:00.000Z', '2026-01-07T12:00:00.000Z']],
    ['custom: IANA zone east of UTC, date before in UTC', { trigger: 'custom_schedule', schedule_days_of_week: [1], schedule_times_of_day: ['01:00'], schedule_time_zone: 'Asia/Tokyo' }, '2026-01-01T00:00:00Z', 1, ['2026-01-04T16:00:00.000Z']],
    // New York springs forward on 2026-03-08 at 02:00 to 03:00: 02:30 runs at the jump, once.
    ['spring forward: a skipped time runs at the jump', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['02:30'], schedule_time_zone: 'America/New_York' }, '2026-03-07T00:00:00Z', 3, ['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']],
    ['spring forward: two skipped-over times run once', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['02:15', '02:45', '03:00'], schedule_time_zone: 'America/New_York' }, '2026-03-08T00:00:00Z', 2, ['2026-03-08T07:00:00.000Z', '2026-03-09T06:15:00.000Z']],
    // Falls back on 2026-11-01 at 02:00 to 01:00: 01:30 happens twice and runs the first time.
    ['fall back: an ambiguous time runs once', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['01:30'], schedule_time_zone: 'America/New_York' }, '2026-10-31T00:00:00Z', 3, ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']],
    ['Paris spring forward', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['02:30'], schedule_time_zone: 'Paris' }, '2026-03-28T12:00:00Z', 2, ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']],
    ['Lord Howe half-hour shift', { trigger: 'daily', interval: 'day', schedule_times_of_day: ['02:15'], schedule_time_zone: 'Australia/Lord_Howe' }, '2026-10-03T00:00:00Z', 1, ['2026-10-03T15:30:00.000Z']],
  ])('%s', (_name, schedule, after, count, expected) => {
    expect(iso(nextDueTimes(schedule, new Date(after), count))).toEqual(expected);
  });

  it('gives nothing for a count of zero', () => {
    expect(nextDueTimes({ trigger: 'daily', interval: 'day' }, new Date(), 0)).toEqual([]);
  });
});

describe('due times between two instants (catching up)', () => {
  const schedule: AutomationSchedule = { trigger: 'custom_schedule', schedule_days_of_week: [1, 3, 5], schedule_times_of_day: ['08:00'], schedule_time_zone: 'London' };
  it('gives each missed time once, the end included, the start not', () => {
    expect(iso(dueTimesBetween(schedule, new Date('2026-01-05T08:00:00Z'), new Date('2026-01-09T08:00:00Z')))).toEqual([
      '2026-01-07T08:00:00.000Z',
      '2026-01-09T08:00:00.000Z',
    ]);
  });
  it('across a clock change, on the wall clock', () => {
    expect(iso(dueTimesBetween(schedule, new Date('2026-03-27T00:00:00Z'), new Date('2026-03-31T00:00:00Z')))).toEqual(['2026-03-27T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });
  it('at most the limit, the earliest first', () => {
    expect(iso(dueTimesBetween({ trigger: 'daily', interval: 'day' }, new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'), 2))).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
    ]);
  });
  it('nothing when the span holds no due time', () => {
    expect(dueTimesBetween(schedule, new Date('2026-01-05T09:00:00Z'), new Date('2026-01-06T09:00:00Z'))).toEqual([]);
  });
});

describe('schedules in words', () => {
  it.each<[AutomationSchedule, string]>([
    [{ trigger: 'custom_schedule', schedule_days_of_week: [3, 1], schedule_times_of_day: ['14:30', '06:30'], schedule_time_zone: 'Eastern Time (US & Canada)' }, 'Every Monday and Wednesday at 06:30 and 14:30, Eastern Time (US & Canada)'],
    [{ trigger: 'custom_schedule', schedule_days_of_week: [1, 3, 5], schedule_times_of_day: ['9:05'] }, 'Every Monday, Wednesday and Friday at 09:05, UTC'],
    [{ trigger: 'custom_schedule', schedule_times_of_day: ['12:00'], schedule_time_zone: 'Europe/Paris' }, 'Every day at 12:00, Europe/Paris'],
    [{ trigger: 'daily', interval: 'day' }, 'Every day at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'week', recurring_day: 0 }, 'Every Sunday at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'week_end' }, 'Every Saturday at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'month', recurring_days: [15, 1] }, 'Every month on days 1 and 15 at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'month', recurring_day: 31 }, 'Every month on day 31 (the last day when the month is shorter) at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'month_end' }, 'Every month on the last day at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'month_end', recurring_days: [1, 2, 3] }, 'Every month on the last day, 1 day before the last day and 2 days before the last day at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'quarter', recurring_day: 10 }, 'Every quarter on day 10 at 00:00, UTC'],
    [{ trigger: 'daily', interval: 'year_end', schedule_times_of_day: ['23:30'], schedule_time_zone: 'Tokyo' }, 'Every year on the last day at 23:30, Tokyo'],
  ])('%j', (schedule, words) => {
    expect(humanReadableSchedule(schedule)).toBe(words);
  });
});

describe('schedules refused', () => {
  it.each<[AutomationSchedule, string, string]>([
    [{ trigger: 'daily' }, 'interval', 'must be one of day, week, week_end'],
    [{ trigger: 'daily', interval: 'hour' }, 'interval', 'must be one of'],
    [{ trigger: 'daily', interval: 'week', recurring_days: [7] }, 'recurring_days', 'has 7, which is no day of a week (0 to 6)'],
    [{ trigger: 'daily', interval: 'month', recurring_day: 0 }, 'recurring_day', 'has 0, which is no day of a month (1 to 31)'],
    [{ trigger: 'daily', interval: 'quarter', recurring_day: 93 }, 'recurring_day', 'no day of a quarter (1 to 92)'],
    [{ trigger: 'daily', interval: 'year_end', recurring_day: 367 }, 'recurring_day', 'no day of a year (1 to 366, counted back from its last day)'],
    [{ trigger: 'daily', interval: 'day', schedule_times_of_day: ['24:00'] }, 'schedule_times_of_day', 'has "24:00", which is no time of day'],
    [{ trigger: 'daily', interval: 'day', schedule_times_of_day: ['6pm'] }, 'schedule_times_of_day', 'has "6pm"'],
    [{ trigger: 'custom_schedule', schedule_days_of_week: [-1] }, 'schedule_days_of_week', 'has -1, which is no day of the week'],
    [{ trigger: 'custom_schedule', schedule_time_zone: 'Nowhere' }, 'schedule_time_zone', 'names no known time zone ("Nowhere")'],
  ])('%j: %s', (schedule, field, message) => {
    const problems = scheduleProblems(schedule);
    expect(problems[field]?.join(' ')).toContain(message);
    let thrown: unknown;
    try {
      nextDueTimes(schedule, new Date(), 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AtriumError);
    expect((thrown as AtriumError).type).toBe('bad-request/request-params-invalid');
  });

  it('finds nothing wrong in a good schedule', () => {
    expect(scheduleProblems({ trigger: 'custom_schedule', schedule_days_of_week: [0, 6], schedule_times_of_day: ['00:00', '23:59'], schedule_time_zone: 'Hawaii' })).toEqual({});
  });
});
