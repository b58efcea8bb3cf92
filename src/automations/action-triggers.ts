import type { Db } from '../db/database.js';
import { dataVersionOf } from '../db/read-cache.js';
import type { FileEventFollowUp, FileEventWatcher } from '../files/index.js';
import type { HistoryEvent } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import { listActionWatches, readAutomationWatchVersion } from '../repositories/automation-watch.js';
import { type ActionWatch, actionWatchOf, ActionWatchIndex, fileActionOf } from './action-watch-index.js';
import { queueAutomationRun } from './automation-runs.js';
import type { AutomationRunCause } from './run-cause.js';

// The `action` trigger (docs/automations.md#action-triggers): a file action recorded in History,
// through whichever door, queues a run of each enabled `action` automation that watches it, in
// the transaction of the change itself, so a change never commits without its runs.

/**
 * A run whose own depth is this (docs/automations.md: 1 for a run a person, a schedule or a
 * webhook queued) triggers nothing by its file actions: a chain of automations triggering each
 * other stops after three runs, and a loop cannot run forever.
 */
export const MAX_ACTION_TRIGGER_DEPTH = 3;

interface KeptIndex {
  /** The automations' change counter (migration 024) the index was built at. */
  version: string;
  index: ActionWatchIndex;
  /** The data version at which the counter was last found unchanged: until it moves, no query. */
  checkedAt: string | undefined;
}

/**
 * The core's watcher of file actions: one per process, keeping the index of the enabled `action`
 * automations, built again only when an automation changes.
 */
export class ActionTriggers implements FileEventWatcher {
  private kept: KeptIndex | undefined;

  /** `root`: the database (not a transaction), whose data version says when nothing has changed. */
  constructor(private readonly root: Db) {}

  async followUp(db: Db, origin: Origin, events: readonly HistoryEvent[]): Promise<FileEventFollowUp | undefined> {
    const acting = origin.automation;
    // An event of a run at the last depth triggers nothing: a chain stops here (nothing is
    // logged, as the run that acted is not this one's to write to).
    if (acting !== undefined && acting.depth >= MAX_ACTION_TRIGGER_DEPTH) return undefined;
    if (!events.some(triggersAtAll)) return undefined;
    const index = await this.index(db);
    if (index.size === 0) return undefined;
    const runs: { watch: ActionWatch; cause: AutomationRunCause }[] = [];
    for (const event of events) {
      if (!triggersAtAll(event)) continue;
      const action = fileActionOf(event.action);
      if (action === undefined) continue;
      // A move or copy is the file arriving at its destination: that is the path watched.
      const arrived = event.destination ?? event.path ?? '';
      for (const watch of index.watchersOf(action, arrived)) {
        // An automation's own run never triggers it again.
        if (watch.id === acting?.id) continue;
        runs.push({ watch, cause: causeOf(event, action, acting?.depth ?? 0) });
      }
    }
    if (runs.length === 0) return undefined;
    return async (tx, now) => {
      for (const { watch, cause } of runs) await queueAutomationRun(tx, { id: watch.id, workspaceId: watch.workspaceId }, cause, now);
    };
  }

  /**
   * The index as the database holds it now. Its counter is read (one row, by the change's own
   * transaction) only when the data version has moved since it was last read; it is built again
   * only when the counter has moved.
   */
  private async index(db: Db): Promise<ActionWatchIndex> {
    const current = dataVersionOf(this.root)?.current();
    const dataVersion = typeof current === 'string' || current === undefined ? current : await current;
    const kept = this.kept;
    if (kept !== undefined && dataVersion !== undefined && kept.checkedAt === dataVersion) return kept.index;
    const version = await readAutomationWatchVersion(db);
    if (kept !== undefined && kept.version === version) {
      kept.checkedAt = dataVersion;
      return kept.index;
    }
    const watches = (await listActionWatches(db)).map(actionWatchOf).filter((watch): watch is ActionWatch => watch !== undefined);
    const built: KeptIndex = { version, index: new ActionWatchIndex(watches), checkedAt: dataVersion };
    this.kept = built;
    return built.index;
  }
}

/** Only files trigger: a folder made, moved, copied or deleted does not (nor the files in it). */
function triggersAtAll(event: HistoryEvent): boolean {
  return event.targets?.type === 'file' && fileActionOf(event.action) !== undefined;
}

function causeOf(event: HistoryEvent, action: string, depth: number): AutomationRunCause {
  const path = event.source ?? event.path ?? '';
  return event.destination === undefined || event.destination === null
    ? { kind: 'action', action, path, depth }
    : { kind: 'action', action, path, destination: event.destination, depth };
}
