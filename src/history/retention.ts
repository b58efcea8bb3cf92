import type { Db } from '../db/database.js';
import { pruneHistoryBatch } from '../repositories/history.js';
import { DAY_MS } from '../lib/time.js';

/** Records removed per transaction: short transactions, so writers wait on the chain row only briefly. */
export const PRUNE_BATCH = 1000;

/**
 * Removes the records older than the retention period (site setting `history_retention_days`),
 * oldest first and in bounded batches, each its own transaction. Only an unbroken run from the
 * start of the chain is removed, and the chain row keeps the id and hash of the last removed
 * record, so `atrium history verify` still checks everything that is left. Answers how many went.
 */
export async function pruneHistory(db: Db, now: number, retentionDays: number): Promise<number> {
  const cutoff = now - retentionDays * DAY_MS;
  let removed = 0;
  for (;;) {
    const count = await db.transaction().execute((tx) => pruneHistoryBatch(tx, cutoff, PRUNE_BATCH));
    removed += count;
    if (count < PRUNE_BATCH) return removed;
  }
}
