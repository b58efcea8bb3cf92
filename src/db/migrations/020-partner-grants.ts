import type { Kysely, Migration } from 'kysely';

/**
 * Partner grants (docs/partners.md): a grant may name a Partner (`partner_id`) instead of a user or
 * groups, and then applies to that Partner's users only. Deleting a Partner deletes its grants: the
 * feature does it, recording each, and the cascade keeps a grant from ever outliving its Partner.
 * Indexed as user and group grants are, by grantee then path, for the checks on every request.
 */
export function partnerGrants(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('permissions').addColumn('partner_id', 'integer', (c) => c.references('partners.id').onDelete('cascade')).execute();
      await db.schema.createIndex('permissions_partner').on('permissions').columns(['partner_id', 'path_key']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('permissions_partner').execute();
      await db.schema.alterTable('permissions').dropColumn('partner_id').execute();
    },
  };
}
