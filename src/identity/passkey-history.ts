import type { HistoryEvent } from '../history/index.js';
import type { Passkey } from '../repositories/passkeys.js';
import type { User } from '../repositories/users.js';

type PasskeyAction = 'two_factor_create' | 'two_factor_update' | 'two_factor_destroy';

const DISPLAY: Record<PasskeyAction, (username: string, name: string) => string> = {
  two_factor_create: (username, name) => `${username} added the passkey "${name}" for two-factor authentication`,
  two_factor_update: (username, name) => `${username} renamed a passkey to "${name}"`,
  two_factor_destroy: (username, name) => `${username} removed the passkey "${name}"`,
};

/** What History keeps of a passkey: its name and the authenticator's model, never key material. */
function passkeyFields(passkey: Passkey): Record<string, unknown> {
  return { id: passkey.id, name: passkey.name, aaguid: passkey.aaguid, backed_up: passkey.backedUp };
}

/**
 * The record of a passkey added, renamed or removed: the second factors' actions, as for an
 * authenticator app (two-factor-enrolment.ts), with the passkey in `targets`. It belongs to the
 * Workspace of the passkey's user, whose administrators see what happens to its credentials.
 */
export function passkeyEvent(action: PasskeyAction, user: User, passkey: Passkey, before?: Passkey): HistoryEvent {
  return {
    action,
    workspaceId: user.workspaceId,
    display: DISPLAY[action](user.username, passkey.name),
    targets: {
      user: { id: user.id, username: user.username },
      method: 'webauthn',
      ...(before === undefined ? { passkey: passkeyFields(passkey) } : { before: { passkey: passkeyFields(before) }, after: { passkey: passkeyFields(passkey) } }),
    },
  };
}

