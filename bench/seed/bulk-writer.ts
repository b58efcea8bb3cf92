import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type Row = readonly unknown[];

/** Writes rows straight into Atrium's tables, in batches inside transactions. */
export interface BulkWriter {
  insert(table: string, columns: readonly string[], rows: Iterable<Row>): Promise<void>;
  /** Brings id sequences past the explicit ids the seed wrote, and refreshes planner statistics. */
  finish(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const BATCH_ROWS = 5_000;

function* batches(rows: Iterable<Row>, size: number): Generator<Row[]> {
  let batch: Row[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) { yield batch; batch = []; }
  }
  if (batch.length > 0) yield batch;
}

/** SQLite: one prepared insert run per row in a transaction (about a microsecond a row). */
export function sqliteWriter(file: string): BulkWriter {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  return {
    async insert(table, columns, rows) {
      const statement = sqlite.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
      const insertAll = sqlite.transaction((batch: Row[]) => {
        for (const row of batch) statement.run(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)));
      });
      for (const batch of batches(rows, BATCH_ROWS)) insertAll(batch);
    },
    // AUTOINCREMENT tables follow explicit ids by themselves; Atrium runs no ANALYZE, so neither do we.
    async finish() {},
    async close() { sqlite.close(); },
  };
}

/** PostgreSQL: multi-row inserts, as many rows per statement as the 65,535 parameters allow. */
export async function postgresWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async insert(table, columns, rows) {
      const perStatement = Math.floor(60_000 / columns.length);
      await client.query('begin');
      try {
        for (const batch of batches(rows, perStatement)) {
          const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
          await client.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`, batch.flat());
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
    async finish(tables) {
      for (const table of tables) {
        await client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`);
      }
      // A live server's autovacuum would vacuum and analyze freshly loaded tables within a minute,
      // in the middle of the measurements; do it now, so they run on a site in its steady state.
      await client.query(`vacuum analyze ${[...tables, 'permission_groups'].join(', ')}`);
    },
    async close() { await client.end(); },
  };
}
