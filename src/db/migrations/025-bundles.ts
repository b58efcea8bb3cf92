import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Bundles (docs/sharing.md): share links, each of one Workspace, made by one user, sharing one or
 * more paths of that Workspace (qualified site paths, with their comparison keys) at one public
 * `code`. The code is unique as written (the link's URL is looked up by it, case and all) and
 * also without regard to case (`code_key`), so two links never differ by case alone. The link's
 * password is kept only as its argon2id hash.
 *
 * A creator who is deleted leaves its links without a creator (`user_id` null): such a link has
 * ended (a link is served by its creator's authority, and that is gone), but stays listed to its
 * Workspace's administrators with the record of who used it, until they delete it.
 *
 * What happens to a link is kept beside it: the people it was shared with (`bundle_recipients`),
 * the visitors who registered (`bundle_registrations`), what they did (`bundle_actions`) and what
 * they downloaded (`bundle_downloads`). All of it goes with its link.
 */
export function bundles(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('bundles'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('code_key', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text')
        .addColumn('internal_name', 'text')
        .addColumn('note', 'text')
        .addColumn('expires_at', t.time)
        .addColumn('start_access_on_date', t.time)
        .addColumn('max_uses', 'integer')
        .addColumn('password_hash', 'text')
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('require_registration', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('skip_name', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('skip_email', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('skip_company', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('path_template', 'text')
        .addColumn('path_template_time_zone', 'text')
        .addColumn('dont_separate_submissions_by_folder', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('dont_allow_folders_in_uploads', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundles_workspace').on('bundles').columns(['workspace_id', 'id']).execute();
      await db.schema.createIndex('bundles_user').on('bundles').columns(['user_id', 'id']).execute();

      await t.withId(db.schema.createTable('bundle_paths'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull())
        .addColumn('recursive', t.flag, (c) => c.notNull())
        .addUniqueConstraint('bundle_paths_bundle_path', ['bundle_id', 'path_key'])
        .execute();
      await db.schema.createIndex('bundle_paths_path').on('bundle_paths').column('path_key').execute();

      await t.withId(db.schema.createTable('bundle_recipients'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('recipient_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('company', 'text')
        .addColumn('note', 'text')
        .addColumn('sent_at', t.time)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addUniqueConstraint('bundle_recipients_bundle_recipient', ['bundle_id', 'recipient_key'])
        .execute();

      await t.withId(db.schema.createTable('bundle_registrations'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('bundle_recipient_id', 'integer', (c) => c.references('bundle_recipients.id').onDelete('set null'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('company', 'text')
        .addColumn('ip', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundle_registrations_bundle').on('bundle_registrations').columns(['bundle_id', 'id']).execute();

      await t.withId(db.schema.createTable('bundle_actions'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('bundle_registration_id', 'integer', (c) => c.references('bundle_registrations.id').onDelete('set null'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('source', 'text')
        .addColumn('destination', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundle_actions_bundle').on('bundle_actions').columns(['bundle_id', 'id']).execute();

      await t.withId(db.schema.createTable('bundle_downloads'))
        .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('bundle_registration_id', 'integer', (c) => c.references('bundle_registrations.id').onDelete('set null'))
        .addColumn('download_method', 'text', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundle_downloads_bundle').on('bundle_downloads').columns(['bundle_id', 'id']).execute();

      // Their writes move PostgreSQL's data version, so that no read cache keeps a changed link or its record.
      if (dialect === 'postgres') {
        for (const table of ['bundles', 'bundle_paths', 'bundle_recipients', 'bundle_registrations', 'bundle_actions', 'bundle_downloads']) await addTrigger(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['bundle_downloads', 'bundle_actions', 'bundle_registrations', 'bundle_recipients', 'bundle_paths', 'bundles']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
