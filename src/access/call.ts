import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import type { Origin } from '../lib/origin.js';
import type { PathFrame } from './path-frame.js';

/** Who acts, where (the request context), when, and through which door: what every Workspace-scoped service call takes. */
export interface Call {
  db: Db;
  caller: Caller;
  requestWorkspaceId: number;
  now: number;
  /** The front door and client address, recorded in History with every change the call makes. */
  origin: Origin;
  /**
   * The caller's path frame when it is not the request Workspace's root: a Partner user's, its
   * Partner's root folder (path-frame.ts). Paths the call names and shows are read in it.
   */
  frame?: PathFrame;
  /**
   * Set by an access review (access-review/) around a change: called by History when the change
   * records itself, in the change's transaction, it answers what the record carries besides (the
   * effective-access difference), or throws to undo the change when it was only a dry run.
   */
  reviewChange?: (tx: Db) => Promise<Readonly<Record<string, unknown>>>;
}
