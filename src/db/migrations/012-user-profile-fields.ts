import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * The Files.com user fields the SDKs send and show beyond Atrium's own: profile text (time zone,
 * language, company, notes), the account's access settings (an end date, the addresses it may
 * come from, a root folder, the protocol flags, a password change asked for, the TLS setting), and
 * a group's notes and protocol flags. Existing users keep every protocol allowed, nothing else
 * set; existing groups override nothing (a group's flag only ever allows, docs/workspaces-users-groups.md).
 */
export function userProfileFields(dialect: DialectName): Migration {
  const types = columnTypes(dialect);
  const trueValue = dialect === 'sqlite' ? 1 : true;
  const userText = ['company', 'notes', 'allowed_ips', 'user_root'] as const;
  const protocolFlags = ['sftp_permission', 'dav_permission', 'ftp_permission', 'restapi_permission'] as const;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      for (const column of userText) await db.schema.alterTable('users').addColumn(column, 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('users').addColumn('authenticate_until', types.time).execute();
      await db.schema.alterTable('users').addColumn('require_password_change', types.flag, (c) => c.notNull().defaultTo(types.falseValue)).execute();
      await db.schema.alterTable('users').addColumn('ssl_required', 'text', (c) => c.notNull().defaultTo('use_system_setting')).execute();
      for (const column of protocolFlags) await db.schema.alterTable('users').addColumn(column, types.flag, (c) => c.notNull().defaultTo(trueValue)).execute();
      await db.schema.alterTable('groups').addColumn('notes', 'text', (c) => c.notNull().defaultTo('')).execute();
      for (const column of protocolFlags) await db.schema.alterTable('groups').addColumn(column, types.flag, (c) => c.notNull().defaultTo(types.falseValue)).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of [...protocolFlags, 'notes']) await db.schema.alterTable('groups').dropColumn(column).execute();
      const userColumns = ['time_zone', 'language', ...userText, 'authenticate_until', 'require_password_change', 'ssl_required', ...protocolFlags];
      for (const column of userColumns) await db.schema.alterTable('users').dropColumn(column).execute();
    },
  };
}
