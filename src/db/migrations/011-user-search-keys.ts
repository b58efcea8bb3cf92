import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Lower-cased NFC copies of each user's name and email, as `username_key` is of the username, so
 * that `filter[name]`, `filter[email]`, `filter_prefix[...]`, `search` and `sort_by[name|email]`
 * compare without regard to case in the same way on both databases (SQLite's lower() knows only
 * ASCII), and an exact look-up by email reads an index. Existing users get theirs here, computed
 * as the server computes them (the same normalisation, written out: a migration must not change
 * when the code does).
 */
export function userSearchKeys(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('name_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('users').addColumn('email_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      const users = await sql<{ id: number; name: string; email: string }>`select id, name, email from users where name <> '' or email <> ''`.execute(db);
      const key = (text: string) => text.normalize('NFC').toLowerCase();
      for (const user of users.rows) {
        await sql`update users set name_key = ${key(user.name)}, email_key = ${key(user.email)} where id = ${user.id}`.execute(db);
      }
      await db.schema.createIndex('users_name_key').on('users').columns(['name_key', 'id']).execute();
      await db.schema.createIndex('users_email_key').on('users').columns(['email_key', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_email_key').execute();
      await db.schema.dropIndex('users_name_key').execute();
      await db.schema.alterTable('users').dropColumn('email_key').execute();
      await db.schema.alterTable('users').dropColumn('name_key').execute();
    },
  };
}
