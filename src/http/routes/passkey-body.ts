import { Type } from 'typebox';
import type { Passkey } from '../../identity/index.js';
import { isoTime } from '../../lib/time.js';

/** A passkey as the API shows it: what tells it apart, never key material. */
export const PasskeyBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()], { description: 'Its last sign-in' }),
  backed_up: Type.Boolean({ description: 'A synced passkey (kept by a password manager or a platform account) rather than one bound to a single device' }),
});

export function passkeyBody(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: isoTime(passkey.createdAt),
    last_used_at: isoTime(passkey.lastUsedAt),
    backed_up: passkey.backedUp,
  };
}
