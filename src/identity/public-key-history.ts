import type { HistoryEvent } from '../history/index.js';
import type { PublicKey } from '../repositories/public-keys.js';

/** What History keeps of an SSH key: what identifies it (title, type, fingerprint), which is public anyway. */
function keyFields(key: PublicKey): Record<string, unknown> {
  return { title: key.title, algorithm: key.algorithm, fingerprint_sha256: key.fingerprintSha256 };
}

type PublicKeyAction = 'public_key_create' | 'public_key_update' | 'public_key_destroy';

const VERBS: Record<PublicKeyAction, string> = { public_key_create: 'Added', public_key_update: 'Changed', public_key_destroy: 'Deleted' };

/**
 * The record of an SSH key added, renamed or deleted. Like an API key's, it belongs to the Workspace
 * of the key's user, whose administrators manage that user's keys.
 */
export function publicKeyEvent(action: PublicKeyAction, key: PublicKey, before?: PublicKey): HistoryEvent {
  return {
    action,
    workspaceId: key.ownerWorkspaceId,
    display: `${VERBS[action]} SSH key of ${key.username} "${key.title}"`,
    targets: {
      id: key.id,
      user_id: key.userId,
      username: key.username,
      ...(before === undefined ? keyFields(key) : { before: keyFields(before), after: keyFields(key) }),
    },
  };
}
