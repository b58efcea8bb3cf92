import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * What provisioning needs of users and groups: the identifier an identity provider gives a user
 * or group (SCIM `externalId`), stored as sent so the provider can find its own records again, and
 * when each was last changed (SCIM `meta.lastModified`; null until the first change).
 */
export function externalIds(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
      await db.schema.alterTable('groups').addColumn('external_id', 'text').execute();
      await db.schema.alterTable('users').addColumn('updated_at', t.time).execute();
      await db.schema.alterTable('groups').addColumn('updated_at', t.time).execute();
      await db.schema.createIndex('users_external_id').on('users').column('external_id').execute();
      await db.schema.createIndex('groups_external_id').on('groups').column('external_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('groups_external_id').execute();
      await db.schema.dropIndex('users_external_id').execute();
      await db.schema.alterTable('groups').dropColumn('updated_at').execute();
      await db.schema.alterTable('users').dropColumn('updated_at').execute();
      await db.schema.alterTable('groups').dropColumn('external_id').execute();
      await db.schema.alterTable('users').dropColumn('external_id').execute();
    },
  };
}
