import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Passkeys as a second factor (docs/authentication.md#passkeys).
 *
 * - `user_passkeys`: a user's WebAuthn credentials. `credential_id` is the authenticator's id for
 *   the credential (base64url), unique on the site; `public_key` the COSE public key (base64url),
 *   which needs no sealing: it verifies signatures and can make none. `counter` is the signature
 *   counter the authenticator last reported (0 for those that keep none), `transports` how the
 *   browser can reach the authenticator (comma-separated: `internal`, `hybrid`, `usb`, ...),
 *   `aaguid` the authenticator's model when it tells one, `backed_up` whether the credential is
 *   synced (a passkey in a password manager) rather than bound to one device.
 * - `sessions.webauthn_challenge`: the challenge of a passkey registration a signed-in user has
 *   started, with when it expires; taken (set back to null) by the registration that answers it,
 *   so no attestation counts twice. An enrolment partial session keeps its challenge in
 *   `partial_sessions.webauthn_challenge` (migration 031) instead.
 */
export function passkeys(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('user_passkeys'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', t.bigInteger, (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('aaguid', 'text')
        .addColumn('backed_up', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_used_at', t.time)
        .execute();
      await db.schema.createIndex('user_passkeys_user').on('user_passkeys').columns(['user_id', 'id']).execute();

      await db.schema.alterTable('sessions').addColumn('webauthn_challenge', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('webauthn_challenge_expires_at', t.time).execute();

      if (dialect === 'postgres') await addTrigger(db, 'user_passkeys');
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['webauthn_challenge_expires_at', 'webauthn_challenge']) await db.schema.alterTable('sessions').dropColumn(column).execute();
      await db.schema.dropTable('user_passkeys').execute();
    },
  };
}
