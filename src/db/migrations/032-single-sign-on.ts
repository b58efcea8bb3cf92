import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Single sign-on with OpenID Connect (docs/authentication.md#single-sign-on-openid-connect).
 *
 * - `sso_providers`: the identity providers a Site Administrator configured. `issuer_url` is
 *   unique: one provider per issuer, so an account at an issuer is one account here. The client
 *   secret is sealed under the data directory's key (identity/secret-box.ts, context `sso:<id>`).
 *   `workspace_id` is where users made at their first sign-in land (no foreign key: a Workspace
 *   that goes leaves the provider unable to make users, which its sign-ins then say).
 * - `sso_provider_groups`: the group mapping: a value of the provider's group claim, and the
 *   Atrium group it stands for. A group that is deleted leaves the mapping.
 * - `sso_links`: which Atrium user an account at an issuer is, by the issuer and the account's
 *   `sub`, never by a name. One account per user and provider.
 * - `sso_sign_in_flows`: a sign-in (or a reauthentication) on its way through the provider: what
 *   the callback must find again (state, nonce, the PKCE verifier, where to go back to), bound to
 *   the browser by the hash of a secret kept in an HttpOnly cookie; `used_at` makes it single-use.
 *   A reauthentication's flow names its session and records `confirmed_at` when it succeeded.
 */
export function singleSignOn(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('sso_providers'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('issuer_url', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret_sealed', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('username_claim', 'text', (c) => c.notNull())
        .addColumn('group_claim', 'text')
        .addColumn('provision_users', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('enabled', t.flag, (c) => c.notNull())
        .addColumn('display_on_login_page', t.flag, (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();

      await t.withId(db.schema.createTable('sso_provider_groups'))
        .addColumn('provider_id', 'integer', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
        .addColumn('claim_value', 'text', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addUniqueConstraint('sso_provider_groups_value_group', ['provider_id', 'claim_value', 'group_id'])
        .execute();
      await db.schema.createIndex('sso_provider_groups_group').on('sso_provider_groups').column('group_id').execute();

      await t.withId(db.schema.createTable('sso_links'))
        .addColumn('provider_id', 'integer', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_sign_in_at', t.time)
        .addUniqueConstraint('sso_links_issuer_subject', ['issuer', 'subject'])
        .addUniqueConstraint('sso_links_provider_user', ['provider_id', 'user_id'])
        .execute();
      await db.schema.createIndex('sso_links_user').on('sso_links').column('user_id').execute();

      await t.withId(db.schema.createTable('sso_sign_in_flows'))
        .addColumn('lookup', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'integer', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('session_id', 'integer', (c) => c.references('sessions.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .addColumn('used_at', t.time)
        .addColumn('confirmed_at', t.time)
        .execute();
      await db.schema.createIndex('sso_sign_in_flows_lookup').on('sso_sign_in_flows').column('lookup').execute();
      await db.schema.createIndex('sso_sign_in_flows_expiry').on('sso_sign_in_flows').column('expires_at').execute();
      await db.schema.createIndex('sso_sign_in_flows_session').on('sso_sign_in_flows').column('session_id').execute();

      if (dialect === 'postgres') {
        for (const table of ['sso_providers', 'sso_provider_groups', 'sso_links', 'sso_sign_in_flows']) await addTrigger(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['sso_sign_in_flows', 'sso_links', 'sso_provider_groups', 'sso_providers']) await db.schema.dropTable(table).execute();
    },
  };
}
