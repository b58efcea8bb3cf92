import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';

/** Who acts, where (the request context) and when: what every Workspace-scoped service call takes. */
export interface Call {
  db: Db;
  caller: Caller;
  requestWorkspaceId: number;
  now: number;
}
