import { callerFromApiKey, type Call, type Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import type { Origin } from '../lib/origin.js';

/**
 * The CLI acts as the site itself: whoever can run it on the server's host can read the database
 * anyway. It is given the authority of a site-wide key (a Site Administrator working in Workspace
 * 0), so every feature applies its usual rules to it (password policy, the last Site
 * Administrator...), and identity confirmation, which only sessions need, is skipped as for keys.
 * Key id 0 names no stored key: nothing the CLI calls looks its own key up.
 */
export function siteAdministratorCaller(): Caller {
  return callerFromApiKey(null, { id: 0, permissionSet: 'full', workspaceId: 0 });
}

/** The command line acts on the host itself: no client address. */
export const CLI_ORIGIN: Origin = { interface: 'cli', ip: null };

/** A Call as the site's administrator, working in `workspaceId` (0, the whole site, unless told). */
export function siteCall(db: Db, workspaceId = 0): Call {
  return { db, caller: siteAdministratorCaller(), requestWorkspaceId: workspaceId, now: Date.now(), origin: CLI_ORIGIN };
}

/** Identity confirmation is for people holding a session; the CLI is the host's own operator. */
export const noConfirmationNeeded = (): Promise<void> => Promise.resolve();
