import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * Partner users (docs/partners.md): a user belongs to at most one Partner (`partner_id`), and may
 * be one of its Partner Admins (`partner_admin`). Existing users belong to none. A Partner is
 * deleted with its users by the feature (each deletion recorded), never by the database behind it.
 */
export function partnerUsers(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('partner_id', 'integer', (c) => c.references('partners.id')).execute();
      await db.schema.alterTable('users').addColumn('partner_admin', t.flag, (c) => c.notNull().defaultTo(t.falseValue)).execute();
      await db.schema.createIndex('users_partner').on('users').columns(['partner_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_partner').execute();
      await db.schema.alterTable('users').dropColumn('partner_admin').execute();
      await db.schema.alterTable('users').dropColumn('partner_id').execute();
    },
  };
}
