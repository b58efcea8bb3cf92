import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { asSortedPage, type SortedPageRequest } from '../lib/sorted-page.js';
import { moveAutomationWatchVersion } from './automation-watch.js';
import { afterInOrder, flagAsNumber } from './keyset-order.js';
import type { Scope } from './scope.js';
import { withinTimeRange } from './time-range.js';

/** One URL an `import_file` automation fetches (Files.com's `import_urls` entry). */
export interface ImportUrl {
  name?: string;
  url: string;
  method: 'get' | 'post';
  headers: Record<string, string>;
  content?: string;
}

/**
 * What an automation's administrators set, under the names Files.com gives the fields: the
 * API's request and answer, History and the table all speak them, so one spelling serves all.
 */
export interface AutomationSettings {
  name: string;
  description: string;
  automation: string;
  trigger: string;
  interval: string | null;
  recurring_days: number[];
  schedule_days_of_week: number[];
  schedule_times_of_day: string[];
  schedule_time_zone: string | null;
  path: string | null;
  source: string | null;
  exclude_pattern: string | null;
  destinations: string[];
  destination_replace_from: string | null;
  destination_replace_to: string | null;
  path_time_zone: string | null;
  trigger_actions: string[];
  disabled: boolean;
  overwrite_files: boolean;
  flatten_destination_structure: boolean;
  always_overwrite_size_matching_files: boolean;
  ignore_locked_folders: boolean;
  retry_on_failure_interval_in_minutes: number | null;
  retry_on_failure_number_of_attempts: number | null;
  import_urls: ImportUrl[];
  user_ids: number[];
  group_ids: number[];
  value: Record<string, unknown> | null;
}

/** An automation (docs/automations.md): work on one Workspace's files, run on a trigger. */
export interface Automation {
  id: number;
  workspaceId: number;
  settings: AutomationSettings;
  /** The public name of its webhook URL, when its trigger is `webhook`. */
  webhookId: string | null;
  webhookSecretHash: string | null;
  userId: number | null;
  createdAt: number;
  lastModifiedAt: number;
  updatedAt: number;
}

export const DEFAULT_AUTOMATION_SETTINGS: Omit<AutomationSettings, 'automation'> = Object.freeze({
  name: '', description: '', trigger: 'manual', interval: null, recurring_days: [], schedule_days_of_week: [], schedule_times_of_day: [],
  schedule_time_zone: null, path: null, source: null, exclude_pattern: null, destinations: [], destination_replace_from: null,
  destination_replace_to: null, path_time_zone: null, trigger_actions: [], disabled: false, overwrite_files: false,
  flatten_destination_structure: false, always_overwrite_size_matching_files: false, ignore_locked_folders: false,
  retry_on_failure_interval_in_minutes: null, retry_on_failure_number_of_attempts: null, import_urls: [], user_ids: [], group_ids: [], value: null,
});

/** The settings kept as JSON text. */
const JSON_FIELDS = new Set<keyof AutomationSettings>([
  'recurring_days', 'schedule_days_of_week', 'schedule_times_of_day', 'destinations', 'trigger_actions', 'import_urls', 'user_ids', 'group_ids', 'value',
]);
const FLAG_FIELDS = new Set<keyof AutomationSettings>([
  'disabled', 'overwrite_files', 'flatten_destination_structure', 'always_overwrite_size_matching_files', 'ignore_locked_folders',
]);

function settingColumns(settings: Partial<AutomationSettings>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => [field, JSON_FIELDS.has(field as keyof AutomationSettings) && value !== null ? JSON.stringify(value) : value]));
}

export type AutomationRow = Record<string, unknown> & {
  id: number; workspace_id: number; webhook_id: string | null; webhook_secret_hash: string | null; user_id: number | null;
  created_at: number | string; last_modified_at: number | string; updated_at: number | string;
};

export function toAutomation(row: AutomationRow): Automation {
  const settings: Record<string, unknown> = {};
  for (const field of [...Object.keys(DEFAULT_AUTOMATION_SETTINGS), 'automation'] as (keyof AutomationSettings)[]) {
    const raw = row[field];
    if (JSON_FIELDS.has(field)) settings[field] = raw === null ? null : JSON.parse(raw as string);
    else if (FLAG_FIELDS.has(field)) settings[field] = Boolean(raw);
    else settings[field] = raw;
  }
  return {
    id: row.id, workspaceId: row.workspace_id, settings: settings as unknown as AutomationSettings,
    webhookId: row.webhook_id, webhookSecretHash: row.webhook_secret_hash, userId: row.user_id,
    createdAt: Number(row.created_at), lastModifiedAt: Number(row.last_modified_at), updatedAt: Number(row.updated_at),
  };
}

export async function findAutomationById(db: Db, id: number): Promise<Automation | undefined> {
  const row = await db.selectFrom('automations').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toAutomation(row as unknown as AutomationRow);
}

/** The automation a webhook URL names, by the URL's id (never by its secret, which is not kept). */
export async function findAutomationByWebhookId(db: Db, webhookId: string): Promise<Automation | undefined> {
  const row = await db.selectFrom('automations').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
  return row === undefined ? undefined : toAutomation(row as unknown as AutomationRow);
}

/** The fields a list of automations can be sorted by (Files.com's), and `id`, its own order. */
export type AutomationSortField = 'id' | 'workspace_id' | 'name' | 'automation' | 'last_modified_at' | 'disabled';

export interface AutomationFilter {
  workspaceId?: number;
  disabled?: boolean;
  automation?: string;
  lastModifiedAt?: { gt?: number; gteq?: number; lt?: number; lteq?: number };
}

const AUTOMATIONS_SORTED_BY: Readonly<Record<AutomationSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  workspace_id: () => sql.ref('workspace_id'),
  name: () => sql.ref('name'),
  automation: () => sql.ref('automation'),
  last_modified_at: () => sql.ref('last_modified_at'),
  disabled: () => flagAsNumber('disabled'),
};

/** The value `automation` has in the order by `field`, as a cursor keeps it. */
export function automationSortValue(automation: Automation, field: AutomationSortField): string | number {
  switch (field) {
    case 'id': return automation.id;
    case 'workspace_id': return automation.workspaceId;
    case 'name': return automation.settings.name;
    case 'automation': return automation.settings.automation;
    case 'last_modified_at': return automation.lastModifiedAt;
    case 'disabled': return automation.settings.disabled ? 1 : 0;
  }
}

/** One page of the automations in `scope`, in the order the page asks for (by id when none). */
export async function listAutomationsInScope(db: Db, scope: Scope, filter: AutomationFilter, page: SortedPageRequest<AutomationSortField>): Promise<Automation[]> {
  const sorted = asSortedPage(page);
  const sortedBy = AUTOMATIONS_SORTED_BY[sorted.sort.field]();
  const direction = sorted.sort.direction;
  let query = db.selectFrom('automations').selectAll().limit(sorted.limit);
  query = sorted.sort.field === 'id' ? query.orderBy('id', direction) : query.orderBy(sortedBy, direction).orderBy('id', direction);
  if (sorted.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('id'), direction, sorted.after));
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.disabled !== undefined) query = query.where('disabled', '=', filter.disabled);
  if (filter.automation !== undefined) query = query.where('automation', '=', filter.automation);
  if (filter.lastModifiedAt !== undefined) query = query.where(withinTimeRange('last_modified_at', filter.lastModifiedAt));
  return (await query.execute()).map((row) => toAutomation(row as unknown as AutomationRow));
}

export async function insertAutomation(db: Db, automation: {
  workspaceId: number; settings: AutomationSettings; webhook: { id: string; secretHash: string } | null; userId: number | null; now: number;
}): Promise<Automation> {
  const row = await db
    .insertInto('automations')
    .values({
      ...(settingColumns(automation.settings) as { automation: string; trigger: string }),
      workspace_id: automation.workspaceId, webhook_id: automation.webhook?.id ?? null, webhook_secret_hash: automation.webhook?.secretHash ?? null,
      user_id: automation.userId, created_at: automation.now, last_modified_at: automation.now, updated_at: automation.now,
      // A schedule counts from its creation: no time before it is due.
      scheduled_until: automation.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await moveAutomationWatchVersion(db);
  return toAutomation(row as unknown as AutomationRow);
}

/**
 * Writes what changes of an automation. `webhook` undefined leaves the webhook as it is, null
 * removes it. `lastModified` false leaves `last_modified_at` (a change of name or description only).
 */
export async function updateAutomationRow(db: Db, id: number, change: {
  settings: Partial<AutomationSettings>; webhook?: { id: string; secretHash: string } | null; lastModified: boolean;
  /** The schedule changed, or the automation was enabled: it counts from now, no earlier time is due. */
  rescheduled?: boolean;
}, now: number): Promise<void> {
  const values: Record<string, unknown> = settingColumns(change.settings);
  if (change.rescheduled === true) values.scheduled_until = now;
  if (change.webhook !== undefined) Object.assign(values, { webhook_id: change.webhook?.id ?? null, webhook_secret_hash: change.webhook?.secretHash ?? null });
  if (change.lastModified) values.last_modified_at = now;
  await db.updateTable('automations').set({ ...values, updated_at: now }).where('id', '=', id).execute();
  await moveAutomationWatchVersion(db);
}

export async function deleteAutomationRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('automations').where('id', '=', id).execute();
  await moveAutomationWatchVersion(db);
}
