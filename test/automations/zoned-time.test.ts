import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantOfWallClock, offsetText, wallClockAt } from '../../src/automations/index.js';

const ZONES = ['Etc/UTC', 'America/New_York', 'Europe/Paris', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/Santiago'];

describe('wall clocks in a time zone', () => {
  it('gives back each whole-second instant from what a clock shows at it, or the first instant showing the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 }), fc.constantFrom(...ZONES), (seconds, zone) => {
        const instant = new Date(seconds * 1000);
        const back = instantOfWallClock(wallClockAt(instant, zone), zone);
        expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
        expect(wallClockAt(back, zone)).toEqual(wallClockAt(instant, zone));
      }),
    );
  });

  it.each([
    // zone, wall clock, instant
    ['America/New_York', [2026, 3, 8, 2, 30], '2026-03-08T07:00:00.000Z'],
    ['America/New_York', [2026, 11, 1, 1, 30], '2026-11-01T05:30:00.000Z'],
    ['Europe/Paris', [2026, 10, 25, 2, 30], '2026-10-25T00:30:00.000Z'],
    ['Europe/Paris', [2026, 3, 29, 2, 0], '2026-03-29T01:00:00.000Z'],
    ['Etc/UTC', [2026, 1, 1, 0, 0], '2026-01-01T00:00:00.000Z'],
  ] as const)('%s %j is %s', (zone, [year, month, day, hour, minute], expected) => {
    expect(instantOfWallClock({ year, month, day, hour, minute, second: 0 }, zone).toISOString()).toBe(expected);
  });

  it.each([
    ['Etc/UTC', '+0000'],
    ['America/New_York', '-0500'],
    ['Asia/Kathmandu', '+0545'],
    ['Pacific/Chatham', '+1345'],
    ['America/St_Johns', '-0330'],
  ])('offset in %s is %s', (zone, text) => {
    expect(offsetText(new Date('2026-01-15T12:00:00Z'), zone)).toBe(text);
  });
});
