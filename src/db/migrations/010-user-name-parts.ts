import type { Kysely, Migration } from 'kysely';

/**
 * The parts of a user's name an identity provider sends (SCIM `name.givenName` and
 * `name.familyName`), kept as sent so they come back as sent; null when none was sent. Atrium's
 * own `name` stays the one name every door shows.
 */
export function userNameParts(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('given_name', 'text').execute();
      await db.schema.alterTable('users').addColumn('family_name', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('family_name').execute();
      await db.schema.alterTable('users').dropColumn('given_name').execute();
    },
  };
}
