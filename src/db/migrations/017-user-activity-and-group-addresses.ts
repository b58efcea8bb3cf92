import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/** A user's activity times, each null until it first happens (docs/workspaces-users-groups.md). */
export const USER_ACTIVITY_COLUMNS = [
  'first_login_at', 'last_active_at', 'last_api_use_at', 'last_web_login_at', 'last_restapi_login_at', 'last_sftp_login_at', 'last_dav_login_at',
] as const;

/**
 * The last of Files.com's user fields that govern or describe access: when a user was last active,
 * by door (written at most once a minute per door, identity/user-activity.ts), and the addresses a
 * group's members may come from (a group's `allowed_ips`, enforced with the user's own). Existing
 * users have no recorded activity; existing groups allow any address. And what lets the users'
 * list filter and sort on the profile fields SDKs ask for: a lower-cased NFC copy of `company`
 * (as 011 made for the name and email, computed here as the server computes it), and indexes on
 * it, `ssl_required` and `authenticate_until`.
 */
export function userActivityAndGroupAddresses(dialect: DialectName): Migration {
  const types = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      for (const column of USER_ACTIVITY_COLUMNS) await db.schema.alterTable('users').addColumn(column, types.time).execute();
      await db.schema.alterTable('groups').addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('users').addColumn('company_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      const users = await sql<{ id: number; company: string }>`select id, company from users where company <> ''`.execute(db);
      for (const user of users.rows) {
        await sql`update users set company_key = ${user.company.normalize('NFC').toLowerCase()} where id = ${user.id}`.execute(db);
      }
      for (const column of ['company_key', 'ssl_required', 'authenticate_until']) {
        await db.schema.createIndex(`users_${column}`).on('users').columns([column, 'id']).execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['company_key', 'ssl_required', 'authenticate_until']) await db.schema.dropIndex(`users_${column}`).execute();
      await db.schema.alterTable('users').dropColumn('company_key').execute();
      await db.schema.alterTable('groups').dropColumn('allowed_ips').execute();
      for (const column of USER_ACTIVITY_COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
    },
  };
}
