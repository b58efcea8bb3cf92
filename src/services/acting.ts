import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/database.js';

/** Who acts, where (the request context) and when: what every Workspace-scoped service call takes. */
export interface Acting {
  db: Db;
  caller: Caller;
  contextWorkspaceId: number;
  now: number;
}
