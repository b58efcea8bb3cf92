import { describe, expect, it } from 'vitest';
import { RAILS_TIME_ZONES, ianaTimeZone, isIanaTimeZone, lookUpTimeZone } from '../../src/automations/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';

describe('time zone names', () => {
  it.each([
    ['Eastern Time (US & Canada)', 'America/New_York'],
    ['Pacific Time (US & Canada)', 'America/Los_Angeles'],
    ['Central Time (US & Canada)', 'America/Chicago'],
    ['Mountain Time (US & Canada)', 'America/Denver'],
    ['Arizona', 'America/Phoenix'],
    ['UTC', 'Etc/UTC'],
    ['London', 'Europe/London'],
    ['Edinburgh', 'Europe/London'],
    ['Bern', 'Europe/Zurich'],
    ['Kyiv', 'Europe/Kiev'],
    ['New Delhi', 'Asia/Kolkata'],
    ["Nuku'alofa", 'Pacific/Tongatapu'],
    ['Chatham Is.', 'Pacific/Chatham'],
    ['Samoa', 'Pacific/Apia'],
    ['International Date Line West', 'Pacific/Midway'],
    ['Europe/Paris', 'Europe/Paris'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['', 'Etc/UTC'],
    [null, 'Etc/UTC'],
    [undefined, 'Etc/UTC'],
  ])('%s is %s', (name, iana) => {
    expect(lookUpTimeZone(name)).toEqual({ ok: true, iana });
  });

  it('holds every name of Rails, each naming a zone the runtime knows', () => {
    expect(Object.keys(RAILS_TIME_ZONES)).toHaveLength(151);
    for (const [name, iana] of Object.entries(RAILS_TIME_ZONES)) {
      expect(isIanaTimeZone(iana), `${name} → ${iana}`).toBe(true);
    }
  });

  it.each(['Mars/Olympus_Mons', 'eastern time (us & canada)', 'GMT+25', ' ', 'toString', 'constructor'])('refuses %j', (name) => {
    const found = lookUpTimeZone(name);
    expect(found.ok).toBe(false);
    if (!found.ok) expect(found.problem).toContain('names no known time zone');
  });

  it('refuses an unknown name as an invalid parameter, naming the field', () => {
    let thrown: unknown;
    try {
      ianaTimeZone('Atlantis', 'schedule_time_zone');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AtriumError);
    expect((thrown as AtriumError).type).toBe('bad-request/request-params-invalid');
    expect((thrown as AtriumError).message).toContain('schedule_time_zone names no known time zone ("Atlantis")');
  });
});
