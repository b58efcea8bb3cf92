import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Visits of share links (docs/sharing.md#visiting-a-link). A visit is one browser that opened a
 * link: it holds the visit cookie, whose token is kept only as its SHA-256 (`token_hash`, found by
 * its unique index), with the visitor's registration when the link asks for one, and the folder
 * its uploads go into, decided at its first upload (`upload_folder`, the folder's name). Each
 * visit is one use of the link's `max_uses`.
 *
 * `bundle_password_failures` are the wrong passwords given to links, with the client's address key
 * (identity/client-address.ts): what limits guessing, per link and per address.
 */
export function bundleVisits(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('bundle_visits'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('bundle_registration_id', 'integer', (c) => c.references('bundle_registrations.id').onDelete('set null'))
        .addColumn('upload_folder', 'text')
        .addColumn('ip', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundle_visits_bundle').on('bundle_visits').columns(['bundle_id', 'id']).execute();

      await t.withId(db.schema.createTable('bundle_password_failures'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('client_key', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundle_password_failures_bundle').on('bundle_password_failures').columns(['bundle_id', 'created_at']).execute();
      await db.schema.createIndex('bundle_password_failures_client').on('bundle_password_failures').columns(['client_key', 'created_at']).execute();

      if (dialect === 'postgres') {
        for (const table of ['bundle_visits', 'bundle_password_failures']) await addTrigger(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['bundle_password_failures', 'bundle_visits']) await db.schema.dropTable(table).execute();
    },
  };
}
