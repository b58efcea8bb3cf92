import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Tables whose writes do not move the data version: History's records and the end of its chain
 * (nothing reads them through the read cache, and every download and sign-in writes them), and
 * the version's own tables; and the background jobs' queue (migration 021), which no cached read
 * reads and every node's runner writes. SQLite leaves out the same writes
 * (db/sqlite-statement-cache.ts).
 */
export const TABLES_OUTSIDE_DATA_VERSION = ['history', 'history_chain', 'jobs', 'data_version', 'data_version_pending'] as const;

/**
 * PostgreSQL's data version (db/data-version.ts): a counter of Atrium's own committed writes, in
 * Atrium's schema. Before, the version was the server's transaction snapshot, which moves on every
 * write anywhere on the server, so a PostgreSQL server shared with other databases (or Atrium's
 * own History records) emptied every read cache many times a second.
 *
 * How a write moves it, exactly once per transaction and only when it commits:
 * - every table but those above has a statement-level trigger that, on a transaction's first
 *   write, records a row in `data_version_pending` (a setting local to the transaction remembers
 *   that it did);
 * - that row's deferred constraint trigger runs at commit, adds one to `data_version.version` and
 *   removes the row. The counter is updated in the committing transaction, so it becomes visible
 *   with the writes it counts, never before or after them. Its row lock is taken at commit, as
 *   the transaction's last lock, so concurrent writers wait for each other only for the moment of
 *   a commit and can never deadlock on it. A rolled-back transaction leaves the counter as it was.
 *
 * A table added by a later migration needs the trigger too: `tablesMissingTheTrigger` finds one
 * that lacks it, and the suite fails on it. SQLite needs none of this: its version is counted by
 * the driver (db/sqlite-statement-cache.ts) and `PRAGMA data_version`.
 */
export function dataVersion(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`create table data_version (id integer primary key check (id = 1), version bigint not null)`.execute(db);
      await sql`insert into data_version (id, version) values (1, 0)`.execute(db);
      await sql`create table data_version_pending (transaction_id bigint primary key)`.execute(db);
      await sql.raw(`
        create function atrium_note_write() returns trigger language plpgsql as $$
        begin
          if coalesce(current_setting('atrium.data_version_noted', true), '') <> 'on' then
            perform set_config('atrium.data_version_noted', 'on', true);
            insert into data_version_pending (transaction_id) values (txid_current());
          end if;
          return null;
        end $$`).execute(db);
      await sql.raw(`
        create function atrium_move_data_version() returns trigger language plpgsql as $$
        begin
          update data_version set version = version + 1 where id = 1;
          delete from data_version_pending where transaction_id = new.transaction_id;
          return null;
        end $$`).execute(db);
      await sql`create constraint trigger data_version_moves after insert on data_version_pending deferrable initially deferred for each row execute function atrium_move_data_version()`.execute(db);
      for (const table of await tablesMissingTheTrigger(db)) await addTrigger(db, table);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      for (const table of await tablesWithTheTrigger(db)) await sql.raw(`drop trigger ${triggerName(table)} on "${table}"`).execute(db);
      await sql`drop table data_version_pending`.execute(db);
      await sql`drop table data_version`.execute(db);
      await sql`drop function atrium_move_data_version()`.execute(db);
      await sql`drop function atrium_note_write()`.execute(db);
    },
  };
}

/** Adds the write-noting trigger to one of Atrium's tables (PostgreSQL). */
export async function addTrigger(db: Kysely<unknown>, table: string): Promise<void> {
  await sql.raw(`create trigger ${triggerName(table)} after insert or update or delete or truncate on "${table}" for each statement execute function atrium_note_write()`).execute(db);
}

const triggerName = (table: string) => `${table}_notes_write`;

/** Atrium's tables in the current schema that should have the trigger and do not (PostgreSQL). */
export async function tablesMissingTheTrigger(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'
      and c.relname not like 'kysely_migration%'
      and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = c.relname || '_notes_write')
    order by c.relname`.execute(db);
  return rows.map((row) => row.name).filter((name) => !(TABLES_OUTSIDE_DATA_VERSION as readonly string[]).includes(name));
}

async function tablesWithTheTrigger(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_trigger t on t.tgrelid = c.oid and t.tgname = c.relname || '_notes_write'
    where n.nspname = current_schema()`.execute(db);
  return rows.map((row) => row.name);
}
