import type { Kysely, Migration } from 'kysely';

/**
 * The identifier an identity provider gives a user or group it provisions (SCIM `externalId`):
 * stored as sent, so the provider can find its own records again.
 */
export function externalIds(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
      await db.schema.alterTable('groups').addColumn('external_id', 'text').execute();
      await db.schema.createIndex('users_external_id').on('users').column('external_id').execute();
      await db.schema.createIndex('groups_external_id').on('groups').column('external_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('groups_external_id').execute();
      await db.schema.dropIndex('users_external_id').execute();
      await db.schema.alterTable('groups').dropColumn('external_id').execute();
      await db.schema.alterTable('users').dropColumn('external_id').execute();
    },
  };
}
