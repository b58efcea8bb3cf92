import { api, API_ROOT } from './client';

/** The types of automation Atrium runs (docs/automations.md#fields). */
export type AutomationType = 'create_folder' | 'delete_file' | 'copy_file' | 'move_file' | 'import_file';
export type AutomationTrigger = 'manual' | 'daily' | 'custom_schedule' | 'webhook' | 'action';

/** One URL an `import_file` automation fetches. */
export interface ImportUrl {
  name?: string;
  url: string;
  method?: 'get' | 'post';
  headers?: Record<string, string>;
  content?: string;
}

/** An automation as the API answers it (docs/automations.md#fields), the fields the console uses. */
export interface Automation {
  id: number;
  workspace_id: number;
  name: string;
  description: string;
  automation: AutomationType;
  trigger: AutomationTrigger;
  interval: string | null;
  recurring_day: number | null;
  recurring_days: number[];
  schedule_days_of_week: number[];
  schedule_times_of_day: string[];
  schedule_time_zone: string | null;
  human_readable_schedule: string | null;
  /** Atrium's own: the next due times, ISO 8601; empty for triggers that are not a schedule, and while disabled. */
  next_run_times: string[];
  path: string | null;
  source: string | null;
  exclude_pattern: string | null;
  destinations: string[];
  trigger_actions: string[];
  /** Whole only in the answer that gave the automation its webhook trigger; its secret masked afterwards. */
  webhook_url: string | null;
  disabled: boolean;
  overwrite_files: boolean;
  flatten_destination_structure: boolean;
  import_urls: ImportUrl[];
  last_modified_at: string;
}

/** What the console's form sets on an automation. */
export interface AutomationSettings {
  name: string;
  description: string;
  automation: AutomationType;
  trigger: AutomationTrigger;
  interval: string | null;
  recurring_days: number[];
  schedule_days_of_week: number[];
  schedule_times_of_day: string[];
  schedule_time_zone: string | null;
  path: string | null;
  source: string | null;
  exclude_pattern: string | null;
  destinations: string[];
  trigger_actions: string[];
  disabled: boolean;
  overwrite_files: boolean;
  flatten_destination_structure: boolean;
  import_urls: ImportUrl[];
}

export type AutomationRunStatus = 'queued' | 'running' | 'success' | 'partial_failure' | 'failure' | 'skipped' | 'canceled';

/** A run of an automation (docs/automations.md#runs). */
export interface AutomationRun {
  id: number;
  automation_id: number;
  status: AutomationRunStatus;
  created_at: string;
  completed_at: string | null;
  runtime: number | null;
  successful_operations: number;
  failed_operations: number;
  status_messages_url: string;
}

/**
 * The automations of one Workspace. A Site Administrator in the Default Workspace would otherwise
 * see every Workspace's, whose paths are another Workspace's: the console shows a Workspace's
 * automations in that Workspace, as it does its Partners.
 */
export async function listAutomations(workspaceId: number): Promise<Automation[]> {
  return (await api<Automation[]>('GET', '/automations', { query: { per_page: 1000, 'filter[workspace_id]': workspaceId } })).data;
}

export async function getAutomation(id: number, signal?: AbortSignal): Promise<Automation> {
  return (await api<Automation>('GET', `/automations/${id}`, signal === undefined ? {} : { signal })).data;
}

export async function createAutomation(settings: AutomationSettings): Promise<Automation> {
  return (await api<Automation>('POST', '/automations', { body: settings })).data;
}

export async function updateAutomation(id: number, changes: Partial<AutomationSettings>): Promise<Automation> {
  return (await api<Automation>('PATCH', `/automations/${id}`, { body: changes })).data;
}

export async function deleteAutomation(id: number): Promise<void> {
  await api('DELETE', `/automations/${id}`);
}

/** Queues a run now; the API answers 204, and the run appears among the automation's runs. */
export async function runAutomationNow(id: number): Promise<void> {
  await api('POST', `/automations/${id}/manual_run`);
}

/** The latest `count` runs of an automation, newest first. */
export async function listRuns(automationId: number, signal?: AbortSignal, count = 50): Promise<AutomationRun[]> {
  const query = { automation_id: automationId, per_page: count, 'sort_by[created_at]': 'desc' };
  return (await api<AutomationRun[]>('GET', '/automation_runs', signal === undefined ? { query } : { query, signal })).data;
}

/**
 * A run's log, as text. Asked at the path of its `status_messages_url` on this origin (the URL
 * names the server's public address, which a console behind a proxy may reach by another), with the
 * session the console already holds: no credential goes into a URL.
 */
export async function readRunLog(run: AutomationRun): Promise<string> {
  let path = `/automation_runs/${run.id}/status_messages`;
  try {
    const named = new URL(run.status_messages_url).pathname;
    if (named.startsWith(`${API_ROOT}/`)) path = named.slice(API_ROOT.length);
  } catch {
    // Not a URL: the path the API documents serves the same log.
  }
  return (await api<string>('GET', path, { text: true })).data;
}
