import type { Db } from '../db/database.js';
import type { UsersTable } from '../db/tables.js';
import { TOUCH_INTERVAL_MS } from './touch-interval.js';
import type { UserActivity } from './users.js';

/**
 * What a user did, as its activity times record it:
 * - `api-use`: a REST request (any credential) from anything but the web console;
 * - `web-use`: a REST request from the web console (it is activity, not API use);
 * - the sign-ins: `web-login` (the console), `restapi-login` (POST /sessions from anything else),
 *   `sftp-login`, `dav-login` (a WebDAV request with the user's credential: WebDAV clients send
 *   one with every request, so every request is a sign-in).
 */
export type ActivityKind = 'api-use' | 'web-use' | 'web-login' | 'restapi-login' | 'sftp-login' | 'dav-login';

/** The time each kind writes (besides `last_active_at`, which every kind writes). */
const COLUMN = {
  'api-use': 'last_api_use_at',
  'web-use': 'last_active_at',
  'web-login': 'last_web_login_at',
  'restapi-login': 'last_restapi_login_at',
  'sftp-login': 'last_sftp_login_at',
  'dav-login': 'last_dav_login_at',
} as const satisfies Record<ActivityKind, keyof UsersTable>;

const FIELD = {
  'api-use': 'lastApiUseAt',
  'web-use': 'lastActiveAt',
  'web-login': 'lastWebLoginAt',
  'restapi-login': 'lastRestapiLoginAt',
  'sftp-login': 'lastSftpLoginAt',
  'dav-login': 'lastDavLoginAt',
} as const satisfies Record<ActivityKind, keyof UserActivity>;

function isSignIn(kind: ActivityKind): boolean {
  return kind.endsWith('-login');
}

/**
 * Whether `kind` at `now` is worth a write, judged from the user as it was read for this request:
 * only when its time is a minute old (or none yet), so a busy user is one write a minute per
 * door, not one per request; a first sign-in always is.
 */
export function activityDue(activity: UserActivity, kind: ActivityKind, now: number): boolean {
  const last = activity[FIELD[kind]];
  if (isSignIn(kind) && activity.firstLoginAt === null) return true;
  return last === null || last < now - TOUCH_INTERVAL_MS;
}

/**
 * Writes `kind`'s time and `last_active_at` (and `first_login_at`, once, for a sign-in), unless a
 * request at the same moment already did: the condition repeats activityDue's in the database.
 */
export async function recordActivity(db: Db, userId: number, kind: ActivityKind, now: number): Promise<void> {
  const column = COLUMN[kind];
  await db
    .updateTable('users')
    .set((eb) => ({
      [column]: now,
      last_active_at: now,
      ...(isSignIn(kind) ? { first_login_at: eb.fn.coalesce('first_login_at', eb.val(now)) } : {}),
    }))
    .where('id', '=', userId)
    .where((eb) => eb.or([
      eb(column, 'is', null),
      eb(column, '<', now - TOUCH_INTERVAL_MS),
      ...(isSignIn(kind) ? [eb('first_login_at', 'is', null)] : []),
    ]))
    .execute();
}
