import { enqueueJob, type JobRunner } from '../jobs/index.js';
import { lockTrashed, removeTrashed, trashedBefore } from '../repositories/trash.js';
import { discardBlobs, type FileDeps } from './file-deps.js';
import { DAY_MS } from '../lib/time.js';

/** The background job kind of the trash's retention purge (docs/background-jobs.md). */
export const TRASH_PURGE_KIND = 'trash-purge';

/** How often a purge is queued: retention is counted in days, so hourly is ample. */
export const TRASH_PURGE_EVERY_MS = 60 * 60 * 1000;

/** Deletions removed per look: each its own short transaction. */
const PURGE_BATCH = 100;

/**
 * Removes for good the deletions older than the site's trash retention, oldest first, each in its
 * own transaction, with the versions of the files it held; their blobs after each commit.
 * Idempotent, as a job's handler must be: a deletion another node purged (or someone restored)
 * meanwhile is found gone and skipped. Not recorded in History, as History's own pruning is not.
 * Answers how many it removed.
 */
export async function purgeExpiredTrash(deps: Pick<FileDeps, 'db' | 'storage' | 'keeping'>, now: number): Promise<number> {
  const { trashRetentionDays } = await deps.keeping();
  const cutoff = now - trashRetentionDays * DAY_MS;
  let removed = 0;
  for (;;) {
    const ids = await trashedBefore(deps.db, cutoff, PURGE_BATCH);
    for (const id of ids) {
      const released = await deps.db.transaction().execute(async (tx) => ((await lockTrashed(tx, id)) === undefined ? undefined : removeTrashed(tx, id)));
      if (released === undefined) continue;
      removed += 1;
      await discardBlobs(deps, released);
    }
    if (ids.length < PURGE_BATCH) return removed;
  }
}

/**
 * Makes the job runner purge the trash (docs/files.md#trash-and-versions): a duty queues one job
 * per hour slot, named by the slot (`trash-purge@<ms>`), so that however many nodes queue it, it
 * runs once; each node queues a slot once, so a poll with nothing new to queue writes nothing.
 */
export function registerTrashPurge(jobs: JobRunner, deps: Pick<FileDeps, 'db' | 'storage' | 'keeping'>): void {
  jobs.register(TRASH_PURGE_KIND, async (_payload, _job, context) => {
    await purgeExpiredTrash(deps, context.now());
  });
  let queuedSlot = -1;
  jobs.everyPoll(async (now) => {
    const slot = Math.floor(now / TRASH_PURGE_EVERY_MS) * TRASH_PURGE_EVERY_MS;
    if (slot === queuedSlot) return;
    await enqueueJob(deps.db, { kind: TRASH_PURGE_KIND, payload: {}, runAt: slot, dedupeKey: `${TRASH_PURGE_KIND}@${slot}` }, now);
    queuedSlot = slot;
  });
}
