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
