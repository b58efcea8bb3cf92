import type { Kysely, Migration } from 'kysely';

/**
 * An API key's `description`: free text its owner or an administrator writes about it (Files.com's
 * ApiKey field of that name). Existing keys get an empty one.
 */
export function apiKeyDescription(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('description', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').dropColumn('description').execute();
    },
  };
}
