import type { Clock } from '../../src/lib/time.js';

/** A clock tests move by hand, so timeouts are tested without sleeping. */
export class TestClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000);
  }
}
