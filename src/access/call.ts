import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import type { Origin } from '../lib/origin.js';

/** Who acts, where (the request context), when, and through which door: what every Workspace-scoped service call takes. */
export interface Call {
  db: Db;
  caller: Caller;
  requestWorkspaceId: number;
  now: number;
  /** The front door and client address, recorded in History with every change the call makes. */
  origin: Origin;
  /**
   * Set by an access review (access-review/) around a change: called by History when the change
   * records itself, in the change's transaction, it answers what the record carries besides (the
   * effective-access difference), or throws to undo the change when it was only a dry run.
   */
  reviewChange?: (tx: Db) => Promise<Readonly<Record<string, unknown>>>;
}
