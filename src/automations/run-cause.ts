import { isoTime } from '../lib/time.js';

// Why a run was queued (docs/automations.md#runs), kept with the run as JSON: what it carries
// decides which files the run takes and how its destinations' tokens are filled in.

export type AutomationRunCause =
  /** POST /automations/<id>/manual_run, the console's "Run now" or `atrium automation run`. */
  | { kind: 'manual' }
  /**
   * A due time of its schedule (epoch ms). `missed` counts the due times before it that passed
   * while no node was running, which this one run stands for.
   */
  | { kind: 'schedule'; dueAt: number; missed: number }
  /**
   * A file action that matched its trigger: the action, the file's qualified site path (and for a
   * move or copy, where it went), and how many automations led to it (Origin's `depth` of the
   * action's own run, 0 when a person or a client acted).
   */
  | { kind: 'action'; action: string; path: string; destination?: string; depth: number }
  /** A call of its webhook URL, with the call's parameters (the `%u-<param>` tokens). */
  | { kind: 'webhook'; params: Readonly<Record<string, string>> };

/** The cause as stored; a row from before causes were kept reads as a manual run. */
export function parseRunCause(text: string): AutomationRunCause {
  const parsed = JSON.parse(text) as Partial<AutomationRunCause>;
  return typeof parsed.kind === 'string' ? (parsed as AutomationRunCause) : { kind: 'manual' };
}

/** How many automations led to a run with this cause: what its own file actions pass on. */
export function depthOfCause(cause: AutomationRunCause): number {
  return cause.kind === 'action' ? cause.depth + 1 : 1;
}

/** The first line of a run's log: why it runs, in words. Paths are the qualified site paths History shows. */
export function causeInWords(cause: AutomationRunCause): string {
  switch (cause.kind) {
    case 'manual':
      return 'Run by hand';
    case 'schedule':
      return cause.missed === 0
        ? `Run for its schedule's due time ${isoTime(cause.dueAt)}`
        : `Run for its schedule's due time ${isoTime(cause.dueAt)}, standing also for ${cause.missed} earlier due ${cause.missed === 1 ? 'time' : 'times'} missed while the server was down`;
    case 'action':
      return `Run because of the ${cause.action} of /${cause.path}${cause.destination === undefined ? '' : ` to /${cause.destination}`}`;
    case 'webhook':
      return `Run by a call of its webhook${Object.keys(cause.params).length === 0 ? '' : ` with ${Object.keys(cause.params).join(', ')}`}`;
  }
}
