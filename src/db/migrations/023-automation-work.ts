import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * What running automations needs (docs/automations.md#runs):
 * - `automation_runs.cause`: why a run was queued (by hand, a schedule's due time, a file action
 *   with its path, a webhook call with its parameters), as JSON text read whole by the run;
 * - `automations.scheduled_until`: the time up to which a schedule's due times have been queued,
 *   so that each due time is queued once however many nodes look, and a node that was down knows
 *   what it missed;
 * - `history.automation_id` and `automation_name`: the automation that made a change, as History
 *   names it (its name as it was then, since an automation can be renamed or deleted).
 */
export function automationWork(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('automation_runs').addColumn('cause', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      await db.schema.alterTable('automations').addColumn('scheduled_until', t.time).execute();
      await db.schema.alterTable('history').addColumn('automation_id', 'integer').execute();
      await db.schema.alterTable('history').addColumn('automation_name', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('history').dropColumn('automation_name').execute();
      await db.schema.alterTable('history').dropColumn('automation_id').execute();
      await db.schema.alterTable('automations').dropColumn('scheduled_until').execute();
      await db.schema.alterTable('automation_runs').dropColumn('cause').execute();
    },
  };
}
