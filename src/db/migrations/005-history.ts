import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/** The hash before the first record of the chain (docs/history.md). */
export const HISTORY_GENESIS_HASH = '0'.repeat(64);

/**
 * History (docs/history.md): one row per recorded action, written in the transaction of the change
 * it records, and one row `history_chain` that holds the end of the hash chain. Every record's
 * hash covers the hash before it; the chain row is what writers lock, so the chain follows the
 * order of ids on every node. Records have no foreign keys: they outlive the users, Workspaces and
 * files they name.
 */
export function history(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('history')
        .addColumn('id', t.bigInteger, (c) => c.primaryKey())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('failure_type', 'text')
        .addColumn('interface', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_id', 'integer')
        .addColumn('username', 'text')
        .addColumn('api_key_id', 'integer')
        // null: a site-level record (site settings, Workspaces, sign-ins of unknown usernames).
        .addColumn('workspace_id', 'integer')
        .addColumn('path', 'text')
        .addColumn('path_key', 'text')
        .addColumn('source', 'text')
        .addColumn('destination', 'text')
        .addColumn('destination_key', 'text')
        .addColumn('display', 'text', (c) => c.notNull())
        .addColumn('targets', 'text')
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('history_workspace').on('history').columns(['workspace_id', 'id']).execute();
      await db.schema.createIndex('history_user').on('history').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('history_path').on('history').columns(['path_key', 'id']).execute();
      await db.schema.createIndex('history_destination').on('history').columns(['destination_key', 'id']).execute();
      await db.schema.createIndex('history_action').on('history').columns(['action', 'id']).execute();
      await db.schema.createIndex('history_created').on('history').columns(['created_at']).execute();

      await db.schema.createTable('history_chain')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_id', t.bigInteger, (c) => c.notNull())
        .addColumn('last_hash', 'text', (c) => c.notNull())
        // The last record removed by retention, where verification starts.
        .addColumn('pruned_id', t.bigInteger, (c) => c.notNull())
        .addColumn('pruned_hash', 'text', (c) => c.notNull())
        .execute();
      // An export is a saved query with a fixed end (the last record when it was made): its
      // results are read when downloaded, with the visibility of the one who made it.
      await t.withId(db.schema.createTable('history_exports'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('api_key_id', 'integer')
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('max_id', t.bigInteger, (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into history_chain (id, last_id, last_hash, pruned_id, pruned_hash) values (1, 0, ${HISTORY_GENESIS_HASH}, 0, ${HISTORY_GENESIS_HASH})`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('history_exports').execute();
      await db.schema.dropTable('history_chain').execute();
      await db.schema.dropTable('history').execute();
    },
  };
}
