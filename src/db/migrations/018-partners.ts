import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Partners (docs/partners.md): the outside organisations a Workspace exchanges files with, each of
 * one Workspace. The name is unique within its Workspace without regard to case (`name_key`), so
 * a duplicate never reveals another Workspace's Partner. `root_folder` is a path inside the
 * Partner's Workspace, relative to its root. A responsible user or group that goes leaves the
 * Partner without one.
 */
export function partners(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('partners'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('root_folder', 'text', (c) => c.notNull())
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('allow_bypassing_2fa_policies', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('allow_credential_changes', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('allow_providing_gpg_keys', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('allow_user_creation', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('cc_emails_to_responsible_party', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('responsible_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('responsible_group_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .addUniqueConstraint('partners_workspace_name', ['workspace_id', 'name_key'])
        .execute();
      await db.schema.createIndex('partners_workspace').on('partners').columns(['workspace_id', 'id']).execute();
      // Its writes move PostgreSQL's data version, so that no read cache keeps a changed Partner.
      if (dialect === 'postgres') await addTrigger(db, 'partners');
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('partners').execute();
    },
  };
}
