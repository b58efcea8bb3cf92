import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

export function initialSchema(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('workspaces'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      // Workspace 0, the Default Workspace, always exists (contract section 2).
      await sql`insert into workspaces (id, name, created_at) values (0, 'Default', ${Date.now()})`.execute(db);

      await t.withId(db.schema.createTable('users'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_key', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text')
        .addColumn('site_admin', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('workspace_admin', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('disabled', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_login_at', t.time)
        .addColumn('password_set_at', t.time)
        .execute();
      await db.schema.createIndex('users_workspace').on('users').columns(['workspace_id', 'id']).execute();

      await t.withId(db.schema.createTable('groups'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addUniqueConstraint('groups_workspace_name', ['workspace_id', 'name_key'])
        .execute();

      await t.withId(db.schema.createTable('group_users'))
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('admin', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addUniqueConstraint('group_users_group_user', ['group_id', 'user_id'])
        .execute();
      await db.schema.createIndex('group_users_user').on('group_users').columns(['user_id', 'group_id']).execute();

      await t.withId(db.schema.createTable('api_keys'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('permission_set', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('lookup', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time)
        .addColumn('last_use_at', t.time)
        .execute();
      await db.schema.createIndex('api_keys_lookup').on('api_keys').column('lookup').execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'id']).execute();

      await t.withId(db.schema.createTable('sessions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('lookup', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_active_at', t.time, (c) => c.notNull())
        .addColumn('ended_at', t.time)
        .addColumn('reauth_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('sessions_lookup').on('sessions').column('lookup').execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      // A grant names exactly one grantee: user_id, group_id, or (ALL-of) rows in permission_groups.
      // Deleting a group must delete every grant that names it, ALL-of grants included: merely
      // dropping the group from an ALL-of set would widen that grant.
      await t.withId(db.schema.createTable('permissions'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
        .addColumn('permission', 'text', (c) => c.notNull())
        .addColumn('recursive', t.flag, (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('permissions_path').on('permissions').columns(['path_key', 'id']).execute();
      await db.schema.createIndex('permissions_user').on('permissions').columns(['user_id', 'path_key']).execute();
      await db.schema.createIndex('permissions_group').on('permissions').columns(['group_id', 'path_key']).execute();
      await db.schema.createIndex('permissions_workspace').on('permissions').columns(['workspace_id', 'id']).execute();

      await db.schema.createTable('permission_groups')
        .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
        .addPrimaryKeyConstraint('permission_groups_pk', ['permission_id', 'group_id'])
        .execute();
      await db.schema.createIndex('permission_groups_group').on('permission_groups').columns(['group_id', 'permission_id']).execute();

      await t.withId(db.schema.createTable('entries'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull().unique())
        .addColumn('parent_key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint')
        .addColumn('storage_key', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('mtime', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('entries_parent').on('entries').columns(['parent_key', 'type', 'path_key']).execute();

      await t.withId(db.schema.createTable('login_failures'))
        .addColumn('username_key', 'text', (c) => c.notNull())
        .addColumn('client_ip', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_username').on('login_failures').columns(['username_key', 'created_at']).execute();
      await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['client_ip', 'created_at']).execute();

      await db.schema.createTable('login_lockouts')
        .addColumn('username_key', 'text', (c) => c.primaryKey())
        .addColumn('locked_until', t.time, (c) => c.notNull())
        .execute();

      await db.schema.createTable('site_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
