import type { IdleTimers } from '../../src/sftp/idle-timeout.js';

/** Idle timers a test moves by hand: `advance` runs, in order, every timer due by then. */
export class ManualIdleTimers implements IdleTimers {
  private now = 0;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; run: () => void }>();

  start(run: () => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { at: this.now + ms, run });
    return id;
  }

  cancel(timer: unknown): void {
    this.pending.delete(timer as number);
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending].filter(([, timer]) => timer.at <= until).sort(([, x], [, y]) => x.at - y.at)[0];
      if (due === undefined) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].run();
    }
    this.now = until;
  }
}
