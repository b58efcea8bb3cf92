import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { activityDue, recordActivity, type ActivityKind } from '../repositories/user-activity.js';

export type { ActivityKind } from '../repositories/user-activity.js';

/**
 * Records what the caller's user just did at a door (its activity times), cheaply: the user read
 * for this request says whether its time is a minute old; only then is there a write, so a busy
 * user costs one write a minute per door. A site-wide key has no user and records nothing.
 */
export async function noteActivity(db: Db, caller: Caller, kind: ActivityKind, now: number): Promise<void> {
  const user = caller.user;
  if (user === null || !activityDue(user.activity, kind, now)) return;
  await recordActivity(db, user.id, kind, now);
}
