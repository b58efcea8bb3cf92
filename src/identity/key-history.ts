import type { Db } from '../db/database.js';
import type { HistoryAction, HistoryEvent } from '../history/index.js';
import { isoTime } from '../lib/time.js';
import type { ApiKey } from '../repositories/api-keys.js';
import { findUserById } from '../repositories/users.js';

/** What History keeps of a key: its id, name and authority, never its secret or hash. */
function keyFields(key: ApiKey): Record<string, unknown> {
  return {
    name: key.name,
    description: key.description,
    permission_set: key.permissionSet,
    workspace_id: key.workspaceId,
    expires_at: isoTime(key.expiresAt),
  };
}

/**
 * The record of a key created, changed or deleted. It belongs to the Workspace of the key's user
 * (whose administrators manage that user's keys); a site-wide key's record is site-level.
 */
export async function keyEvent(db: Db, action: HistoryAction, key: ApiKey, before?: ApiKey): Promise<HistoryEvent> {
  const owner = key.userId === null ? undefined : await findUserById(db, key.userId);
  const whose = key.userId === null ? 'site-wide key' : `key of ${owner?.username ?? `user ${key.userId}`}`;
  const verb = action === 'api_key_create' ? 'Created' : action === 'api_key_update' ? 'Changed' : 'Deleted';
  return {
    action,
    workspaceId: key.userId === null ? null : (owner?.workspaceId ?? key.workspaceId),
    display: `${verb} API ${whose} "${key.name}"`,
    targets: {
      id: key.id,
      user_id: key.userId,
      username: owner?.username ?? null,
      ...(before === undefined ? keyFields(key) : { before: keyFields(before), after: keyFields(key) }),
    },
  };
}
