import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * Automations (docs/automations.md): work on a Workspace's files that runs on a trigger, each of
 * one Workspace, and the record of each of its runs. Lists (destinations, days, times, actions,
 * import URLs, users, groups) and the per-type `value` are JSON text: they are read and written
 * whole, never queried into. A webhook trigger's secret is kept only as its SHA-256; `webhook_id`
 * names the automation in its webhook URL. A run goes with its automation.
 */
export function automations(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('automations'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('automation', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('interval', 'text')
        .addColumn('recurring_days', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('schedule_days_of_week', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('schedule_times_of_day', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('schedule_time_zone', 'text')
        .addColumn('path', 'text')
        .addColumn('source', 'text')
        .addColumn('exclude_pattern', 'text')
        .addColumn('destinations', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('destination_replace_from', 'text')
        .addColumn('destination_replace_to', 'text')
        .addColumn('path_time_zone', 'text')
        .addColumn('trigger_actions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('webhook_id', 'text', (c) => c.unique())
        .addColumn('webhook_secret_hash', 'text')
        .addColumn('disabled', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('overwrite_files', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('flatten_destination_structure', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('always_overwrite_size_matching_files', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('ignore_locked_folders', t.flag, (c) => c.notNull().defaultTo(t.falseValue))
        .addColumn('retry_on_failure_interval_in_minutes', 'integer')
        .addColumn('retry_on_failure_number_of_attempts', 'integer')
        .addColumn('import_urls', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('group_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('value', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_modified_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('automations_workspace').on('automations').columns(['workspace_id', 'id']).execute();
      await t.withId(db.schema.createTable('automation_runs'))
        .addColumn('automation_id', 'integer', (c) => c.notNull().references('automations.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('completed_at', t.time)
        .addColumn('runtime', double)
        .addColumn('successful_operations', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_operations', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('retry_at', t.time)
        .addColumn('retried_at', t.time)
        .addColumn('retried_in_run_id', 'integer')
        .addColumn('retry_of_run_id', 'integer')
        .addColumn('log', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('automation_runs_automation').on('automation_runs').columns(['automation_id', 'id']).execute();
      // Their writes move PostgreSQL's data version, so that no read cache keeps a changed automation or run.
      if (dialect === 'postgres') {
        await addTrigger(db, 'automations');
        await addTrigger(db, 'automation_runs');
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('automation_runs').execute();
      await db.schema.dropTable('automations').execute();
    },
  };
}
