import { isoTime } from '../lib/time.js';

// A run's log (its `status_messages_url`): one line per step, in the order they ran, saying what
// was done to what, or why it was not. It is written for the administrator reading why a run
// failed, so each line names the paths as the automation's Workspace shows them.

/** A log is kept to this many lines: a run over a million files still has a readable end. */
const MAX_LINES = 10_000;

export class RunLog {
  private readonly lines: string[] = [];
  private dropped = 0;
  successful = 0;
  failed = 0;

  constructor(private readonly now: () => number) {}

  /** A line that is no step's outcome: what the run found, or why it stopped. */
  note(text: string): void {
    this.add(text);
  }

  succeeded(text: string): void {
    this.successful += 1;
    this.add(text);
  }

  /** A step that failed after its tries, and why. */
  failedStep(text: string, why: string): void {
    this.failed += 1;
    this.add(`${text}: failed: ${why}`);
  }

  get text(): string {
    const tail = this.dropped > 0 ? [`(${this.dropped} more lines were not kept)`] : [];
    return [...this.lines, ...tail].map((line) => `${line}\n`).join('');
  }

  private add(text: string): void {
    if (this.lines.length >= MAX_LINES) {
      this.dropped += 1;
      return;
    }
    this.lines.push(`${isoTime(this.now())} ${text}`);
  }
}
