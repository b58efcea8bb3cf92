import type { Timer } from '../../src/lib/timer.js';

/**
 * A timer tests fire by hand, beside the TestClock: nothing waits for real time. `fire` runs what
 * is waiting (each callback once, as a real timer would, in the order they were set).
 */
export class ManualTimer implements Timer {
  private waiting: { ms: number; run: () => void }[] = [];

  after(ms: number, run: () => void): () => void {
    const entry = { ms, run };
    this.waiting.push(entry);
    return () => {
      this.waiting = this.waiting.filter((other) => other !== entry);
    };
  }

  /** The delays of the callbacks waiting now. */
  pending(): number[] {
    return this.waiting.map((entry) => entry.ms);
  }

  /** Runs every callback waiting now (not those they set in turn). */
  fire(): void {
    const due = this.waiting;
    this.waiting = [];
    for (const entry of due) entry.run();
  }
}
