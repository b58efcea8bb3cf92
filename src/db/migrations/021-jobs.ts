import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * Background jobs (docs/background-jobs.md): one row per run of background work, queued here so
 * that it survives a restart and is taken by exactly one node at a time. A node holds a running
 * job for a lease (`locked_until`); a job whose lease ran out (its node died) is taken again.
 * `dedupe_key` is unique: at most one job per key, ever (one per schedule due time). No data
 * version trigger on PostgreSQL: no cached read reads this table.
 */
export function jobs(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('jobs'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('run_at', t.time, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', t.time)
        .addColumn('last_error', 'text')
        .addColumn('dedupe_key', 'text', (c) => c.unique())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .addColumn('finished_at', t.time)
        .execute();
      // The claim: the oldest due job of a status (queued by run_at; running, with its lease, is few rows).
      await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_at', 'id']).execute();
      // Listing a kind's jobs, newest first.
      await db.schema.createIndex('jobs_kind').on('jobs').columns(['kind', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('jobs').execute();
    },
  };
}
