import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Two-factor authentication and how a user signs in (docs/authentication.md#two-factor-authentication).
 *
 * - `users.require_2fa`: Files.com's per-user override of the site's 2FA policy
 *   (`use_system_setting`, `always_require`, `never_require`); `users.authentication_method`:
 *   `password`, or `sso` for a user who signs in at an identity provider and has no password;
 *   `users.sso_strategy_id`: that provider.
 * - `user_totp`: a user's authenticator-app secret, sealed under the data directory's key
 *   (identity/secret-box.ts); `confirmed_at` null while enrolment waits for its first code;
 *   `last_used_step` the last 30-second step a code was accepted for, so no code counts twice.
 * - `user_recovery_codes`: single-use codes, stored as SHA-256 (they are 80 random bits).
 * - `partial_sessions`: what a correct password earns a 2FA user before the second factor: an id
 *   the client sends back (kept hashed, as session ids are), short-lived, for one user; `purpose`
 *   `second_factor` (answer a challenge) or `enrolment` (the site requires 2FA the user lacks: it
 *   opens only the enrolment endpoints). `webauthn_challenge` is the passkey challenge issued to it.
 */
export function twoFactor(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('require_2fa', 'text', (c) => c.notNull().defaultTo('use_system_setting')).execute();
      await db.schema.alterTable('users').addColumn('authentication_method', 'text', (c) => c.notNull().defaultTo('password')).execute();
      await db.schema.alterTable('users').addColumn('sso_strategy_id', 'integer').execute();

      await db.schema.createTable('user_totp')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('confirmed_at', t.time)
        .addColumn('last_used_step', t.bigInteger)
        .execute();

      await t.withId(db.schema.createTable('user_recovery_codes'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('used_at', t.time)
        .execute();
      await db.schema.createIndex('user_recovery_codes_user').on('user_recovery_codes').column('user_id').execute();

      await t.withId(db.schema.createTable('partial_sessions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('lookup', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .addColumn('ended_at', t.time)
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('webauthn_challenge', 'text')
        .execute();
      await db.schema.createIndex('partial_sessions_lookup').on('partial_sessions').column('lookup').execute();
      await db.schema.createIndex('partial_sessions_user').on('partial_sessions').column('user_id').execute();
      await db.schema.createIndex('partial_sessions_expiry').on('partial_sessions').column('expires_at').execute();

      if (dialect === 'postgres') {
        for (const table of ['user_totp', 'user_recovery_codes', 'partial_sessions']) await addTrigger(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['partial_sessions', 'user_recovery_codes', 'user_totp']) await db.schema.dropTable(table).execute();
      for (const column of ['sso_strategy_id', 'authentication_method', 'require_2fa']) await db.schema.alterTable('users').dropColumn(column).execute();
    },
  };
}
