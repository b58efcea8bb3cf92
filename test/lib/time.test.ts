import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/lib/time.js';

describe('isoTime (contract 1.1: ISO-8601 UTC without fractions)', () => {
  it('drops the milliseconds and keeps the Z', () => {
    expect(isoTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('2026-01-02T03:04:05Z');
    expect(isoTime(0)).toBe('1970-01-01T00:00:00Z');
  });

  it('keeps years beyond 9999 in their extended form', () => {
    expect(isoTime(Date.UTC(10000, 0, 1))).toBe('+010000-01-01T00:00:00Z');
  });

  it('passes null through', () => {
    expect(isoTime(null)).toBeNull();
  });
});

describe('isoTime against Date#toISOString', () => {
  it('agrees on every kind of day from 1970 to 9999, leap days and the last second of a year included', () => {
    const reference = (ms: number) => `${new Date(ms).toISOString().slice(0, -5)}Z`;
    const samples = [
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900 + 200, 1, 28),
      Date.UTC(2024, 11, 31, 23, 59, 59),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1) - 1,
      -1,
      -86_400_000 * 365,
    ];
    // Every day of 400 years (one full cycle of the calendar), at a moving time of day.
    for (let day = 0; day < 146_097; day += 1) samples.push(Date.UTC(1970, 0, 1 + day) + ((day * 7919) % 86_400) * 1000 + (day % 1000));
    for (const ms of samples) expect(isoTime(ms), String(ms)).toBe(reference(ms));
  });
});
