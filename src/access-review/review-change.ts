import type { Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { accessDifference, type AccessChange } from './difference.js';
import { snapshotAccess, usernamesIn, type ReviewScope } from './snapshot.js';

/** Thrown inside the change's transaction to undo a dry run; never leaves this module. */
class DryRunUndone extends Error {
  constructor(readonly difference: AccessChange[]) {
    super('dry run');
  }
}

export interface ReviewedChange<T> {
  /** The change's own answer; undefined for a dry run. */
  result: T | undefined;
  difference: AccessChange[];
}

/**
 * Makes a change (or only tries it, `dryRun`) and answers the effective-access difference it
 * makes, decided by the engine from the data before the change and from the change's own
 * transaction after its last write (History calls back through Call.reviewChange when the change
 * records itself). A dry run is the real change, with every check and refusal of the real one,
 * undone at that moment by throwing inside its transaction: its answer is what the change would
 * do, and nothing of it commits. A real change's History record carries the same difference.
 *
 * The "before" is read just ahead of the change's transaction rather than inside it: a change
 * confirms its caller's password first (argon2, tens of milliseconds) and must not hold a
 * transaction open meanwhile, nor have a failed confirmation rolled back with it.
 */
export async function reviewChange<T>(
  call: Call,
  dryRun: boolean,
  scopeOf: (db: Db) => Promise<ReviewScope>,
  change: (call: Call) => Promise<T>,
): Promise<ReviewedChange<T>> {
  const scope = await scopeOf(call.db);
  const before = await snapshotAccess(call.db, scope);
  // Names as they were: a deleted user is still named in the difference its deletion makes.
  const usernames = await usernamesIn(call.db, scope);
  let difference: AccessChange[] | undefined;
  const settle = async (db: Db) => {
    difference ??= accessDifference(scope, before, await snapshotAccess(db, scope), usernames);
    if (dryRun) throw new DryRunUndone(difference);
    return difference;
  };
  try {
    const result = await change({ ...call, reviewChange: async (tx) => ({ access_difference: await settle(tx) }) });
    // The change recorded nothing, so it changed nothing: the data now is the data after.
    difference ??= accessDifference(scope, before, await snapshotAccess(call.db, scope), usernames);
    return { result: dryRun ? undefined : result, difference };
  } catch (error) {
    if (error instanceof DryRunUndone) return { result: undefined, difference: error.difference };
    throw error;
  }
}
