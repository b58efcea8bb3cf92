import type { Timer } from '../lib/timer.js';
import { ImportFailure } from './import-failure.js';

/** What the watch stops: the request while it waits for an answer, then the body. */
interface Stoppable {
  destroy(error: Error): unknown;
}

/**
 * The two ways an import is stopped from outside its stream: the caller's signal (the run was
 * canceled, or its job lost) and a wait for the server longer than the timeout. Either destroys
 * whatever is in flight at that moment with an ImportFailure, so the caller sees one error from
 * the one place it is waiting: the promise while it waits for an answer, the body afterwards.
 */
export class ImportWatch {
  private current: Stoppable | null = null;
  private cancelTimer: (() => void) | null = null;
  private ended = false;
  private readonly onAbort = () => this.stop(new ImportFailure('the import was canceled'));

  constructor(
    private readonly signal: AbortSignal,
    private readonly timer: Timer,
    private readonly timeoutMs: number,
    private readonly timeoutMessage: () => string,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Already canceled before anything was sent. */
  get canceled(): boolean {
    return this.signal.aborted;
  }

  /** From now on the watch stops `stream`, and the wait for the server starts again. */
  watch(stream: Stoppable): void {
    this.current = stream;
    this.progress();
  }

  /** The server answered or sent more: its wait starts again. */
  progress(): void {
    if (this.ended) return;
    this.cancelTimer?.();
    this.cancelTimer = this.timer.after(this.timeoutMs, () => this.stop(new ImportFailure(this.timeoutMessage())));
  }

  /** The import is over, whichever way: nothing is watched any more. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.current = null;
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private stop(error: ImportFailure): void {
    const current = this.current;
    this.end();
    current?.destroy(error);
  }
}
