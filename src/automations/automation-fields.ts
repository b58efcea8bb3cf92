import { errors } from '../errors/catalogue.js';
import { compileFileGlobs, parsePathGlob } from './globs.js';
import { humanReadableSchedule as scheduleInWords, nextDueTimes, scheduleProblems, type AutomationSchedule } from './schedule.js';
import { lookUpTimeZone } from './time-zones.js';
import { canonicalPath } from '../lib/paths.js';
import { destinationFixedPrefix, parseDestination } from './tokens.js';
import type { AutomationSettings, ImportUrl } from '../repositories/automations.js';

// The rules of an automation's own fields (docs/automations.md#fields). Each refusal names its
// field: a value outside a field's list is `request-params-invalid` (400); a type or trigger
// Files.com has but Atrium does not run is `model-save-error` (422), saying why.

/** The types Atrium runs. */
export const AUTOMATION_TYPES = ['create_folder', 'delete_file', 'copy_file', 'move_file', 'import_file'] as const;
/** Files.com's types that need what Atrium has not: AS2 partners, remote-server syncs, the v2 workflow engine. */
const TYPES_NOT_OFFERED: Readonly<Record<string, string>> = {
  as2_send: 'Atrium has no AS2 partners to send to',
  run_sync: 'Atrium has no remote server syncs to run',
  v2: 'Atrium runs the classic automation types only, not v2 workflows',
};

export const AUTOMATION_TRIGGERS = ['manual', 'daily', 'custom_schedule', 'webhook', 'action'] as const;
const TRIGGERS_NOT_OFFERED: Readonly<Record<string, string>> = {
  email: 'Atrium receives no email, so an automation cannot be triggered by one',
};

export const AUTOMATION_INTERVALS = ['day', 'week', 'week_end', 'month', 'month_end', 'quarter', 'quarter_end', 'year', 'year_end'] as const;
export const TRIGGER_ACTIONS = ['create', 'copy', 'move', 'archived_delete', 'update', 'read', 'destroy'] as const;

const MAX_PATH = 5000;
const MAX_TEXT = 16_384;
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const invalid = (field: string, message: string) => errors.paramsInvalid({ [field]: [message] });

/** A request's fields as the route read them; a list of ids may come as a comma-separated string. */
export interface AutomationFieldsInput {
  name?: string | null;
  description?: string | null;
  automation?: string;
  trigger?: string;
  interval?: string | null;
  recurring_day?: number | null;
  recurring_days?: number[] | null;
  schedule_days_of_week?: number[] | null;
  schedule_times_of_day?: string[] | null;
  schedule_time_zone?: string | null;
  path?: string | null;
  source?: string | null;
  exclude_pattern?: string | null;
  destinations?: string[] | null;
  destination_replace_from?: string | null;
  destination_replace_to?: string | null;
  path_time_zone?: string | null;
  trigger_actions?: string[] | null;
  disabled?: boolean;
  overwrite_files?: boolean;
  flatten_destination_structure?: boolean;
  always_overwrite_size_matching_files?: boolean;
  ignore_locked_folders?: boolean;
  retry_on_failure_interval_in_minutes?: number | null;
  retry_on_failure_number_of_attempts?: number | null;
  import_urls?: unknown[] | null;
  user_ids?: string | number[] | null;
  group_ids?: string | number[] | null;
  value?: Record<string, unknown> | null;
}

const FLAGS = ['disabled', 'overwrite_files', 'flatten_destination_structure', 'always_overwrite_size_matching_files', 'ignore_locked_folders'] as const;

/** Each field sent, checked and in its kept form; fields not sent stay absent. */
export function checkAutomationFields(input: AutomationFieldsInput): Partial<AutomationSettings> {
  const out: Partial<AutomationSettings> = {};
  if (input.name !== undefined) out.name = text('name', input.name, MAX_TEXT);
  if (input.description !== undefined) out.description = text('description', input.description, MAX_TEXT);
  if (input.automation !== undefined) out.automation = checkType(input.automation);
  if (input.trigger !== undefined) out.trigger = checkTrigger(input.trigger);
  if (input.interval !== undefined) out.interval = oneOf('interval', input.interval, AUTOMATION_INTERVALS);
  if (input.recurring_days !== undefined) out.recurring_days = (input.recurring_days ?? []).map((day) => wholeIn('recurring_days', day, 0, 366));
  // The older singular form: one day.
  else if (input.recurring_day !== undefined) out.recurring_days = input.recurring_day === null ? [] : [wholeIn('recurring_day', input.recurring_day, 0, 366)];
  if (input.schedule_days_of_week !== undefined) {
    out.schedule_days_of_week = [...new Set((input.schedule_days_of_week ?? []).map((day) => wholeIn('schedule_days_of_week', day, 0, 6)))].sort((a, b) => a - b);
  }
  if (input.schedule_times_of_day !== undefined) out.schedule_times_of_day = [...new Set((input.schedule_times_of_day ?? []).map(timeOfDay))].sort();
  if (input.schedule_time_zone !== undefined) out.schedule_time_zone = timeZone('schedule_time_zone', input.schedule_time_zone);
  if (input.path_time_zone !== undefined) out.path_time_zone = timeZone('path_time_zone', input.path_time_zone);
  if (input.path !== undefined) out.path = folderGlob(input.path);
  if (input.source !== undefined) out.source = glob('source', optionalText('source', input.source, MAX_PATH));
  if (input.exclude_pattern !== undefined) out.exclude_pattern = glob('exclude_pattern', optionalText('exclude_pattern', input.exclude_pattern, MAX_PATH));
  if (input.destinations !== undefined) out.destinations = (input.destinations ?? []).map((destination) => text('destinations', destination, MAX_PATH)).filter((d) => d !== '').map(checkedDestination);
  if (input.destination_replace_from !== undefined) out.destination_replace_from = optionalText('destination_replace_from', input.destination_replace_from, MAX_PATH);
  if (input.destination_replace_to !== undefined) out.destination_replace_to = optionalText('destination_replace_to', input.destination_replace_to, MAX_PATH);
  if (input.trigger_actions !== undefined) {
    out.trigger_actions = [...new Set((input.trigger_actions ?? []).map((action) => oneOf('trigger_actions', action, TRIGGER_ACTIONS) as string))];
  }
  for (const flag of FLAGS) {
    const value = input[flag];
    if (value !== undefined) out[flag] = value;
  }
  if (input.retry_on_failure_interval_in_minutes !== undefined) {
    out.retry_on_failure_interval_in_minutes = input.retry_on_failure_interval_in_minutes === null ? null
      : wholeIn('retry_on_failure_interval_in_minutes', input.retry_on_failure_interval_in_minutes, 5, 1440);
  }
  if (input.retry_on_failure_number_of_attempts !== undefined) {
    out.retry_on_failure_number_of_attempts = input.retry_on_failure_number_of_attempts === null ? null
      : wholeIn('retry_on_failure_number_of_attempts', input.retry_on_failure_number_of_attempts, 0, 10);
  }
  if (input.import_urls !== undefined) out.import_urls = (input.import_urls ?? []).map(importUrl);
  if (input.user_ids !== undefined) out.user_ids = idList('user_ids', input.user_ids);
  if (input.group_ids !== undefined) out.group_ids = idList('group_ids', input.group_ids);
  if (input.value !== undefined) out.value = input.value;
  return out;
}

/**
 * What the fields must agree on once the change is applied: an `action` trigger names the actions
 * it follows and never creates folders (Files.com runs no folder creation on one); a
 * `custom_schedule` names its days.
 */
export function checkAutomationWhole(settings: AutomationSettings): void {
  if (settings.trigger === 'action') {
    if (settings.automation === 'create_folder') throw errors.modelSaveError({ trigger: ['action cannot run create_folder: use another trigger'] });
    if (settings.trigger_actions.length === 0) throw errors.modelSaveError({ trigger_actions: ["can't be blank with trigger action: name the actions it follows"] });
  }
  if (settings.trigger === 'custom_schedule' && settings.schedule_days_of_week.length === 0) {
    throw errors.modelSaveError({ schedule_days_of_week: ["can't be blank with trigger custom_schedule"] });
  }
  const schedule = scheduleOf(settings);
  if (schedule !== null) {
    const problems = scheduleProblems(schedule);
    if (Object.keys(problems).length > 0) throw errors.modelSaveError(problems);
  }
  const globs = compileFileGlobs({ path: settings.path, source: settings.source, exclude_pattern: settings.exclude_pattern });
  if (!globs.ok) throw errors.modelSaveError({ [globs.field]: [globs.problem] });
  checkDestinationsStayInside(settings, globs.globs.folder);
  checkTypeValue(settings);
}

/**
 * Each destination's fixed part (up to its first token) must stay in the automation's Workspace:
 * a path without `.` or `..` folders, and a destination relative to the source's folder (`../`)
 * may climb no higher than the folder every file it takes lies in (`folder`), so no file can send
 * it above the Workspace's root. Only a copy or move has a source to be relative to. The rest is
 * filled in at run time, where a step whose path would leave the Workspace fails.
 */
function checkDestinationsStayInside(settings: AutomationSettings, folder: string): void {
  const hasSource = settings.automation === 'copy_file' || settings.automation === 'move_file';
  const depth = folder === '' ? 0 : folder.split('/').length;
  for (const destination of settings.destinations) {
    const prefix = destinationFixedPrefix(destination);
    if (prefix.relativeLevelsUp !== undefined) {
      if (!hasSource) throw errors.modelSaveError({ destinations: [`"${destination}" is relative to a source file, which ${settings.automation} has none of`] });
      if (prefix.relativeLevelsUp > depth) {
        throw errors.modelSaveError({ destinations: [`"${destination}" climbs ${prefix.relativeLevelsUp} folders from files that may lie only ${depth} below the Workspace's root`] });
      }
      continue;
    }
    if (prefix.folder === '') continue;
    try {
      canonicalPath(prefix.folder);
    } catch {
      throw errors.modelSaveError({ destinations: [`"${destination}" is not a path in the Workspace`] });
    }
  }
}

/** The `value` keys a type reads: `older_than_days` of delete_file, a number of days of at least 0. */
function checkTypeValue(settings: AutomationSettings): void {
  const days = settings.value?.older_than_days;
  if (days === undefined) return;
  const number = typeof days === 'string' && days.trim() !== '' ? Number(days) : days;
  if (settings.automation !== 'delete_file') throw errors.modelSaveError({ value: ['older_than_days is only for delete_file'] });
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) throw errors.modelSaveError({ value: ['older_than_days must be a number of days, 0 or more'] });
}

/** The schedule of a `daily` or `custom_schedule` automation, as schedule.ts reads it; null for other triggers. */
export function scheduleOf(settings: AutomationSettings): AutomationSchedule | null {
  if (settings.trigger !== 'daily' && settings.trigger !== 'custom_schedule') return null;
  return {
    trigger: settings.trigger,
    // A `daily` trigger without an interval runs every day, as its name says.
    interval: settings.trigger === 'daily' ? (settings.interval ?? 'day') : settings.interval,
    recurring_days: settings.recurring_days,
    schedule_days_of_week: settings.schedule_days_of_week,
    schedule_times_of_day: settings.schedule_times_of_day,
    schedule_time_zone: settings.schedule_time_zone,
  };
}

/** A sentence saying when the automation runs, in Atrium's words (schedule.ts); null for triggers that are not a schedule. */
export function automationScheduleInWords(settings: AutomationSettings): string | null {
  const schedule = scheduleOf(settings);
  return schedule === null || Object.keys(scheduleProblems(schedule)).length > 0 ? null : scheduleInWords(schedule);
}

/** How many coming due times an automation shows (`next_run_times`): enough to see a pattern, cheap to compute on every listing. */
const NEXT_RUN_TIMES_SHOWN = 5;

/**
 * The next due times of a scheduled automation after `now` (epoch ms), earliest first: what
 * `next_run_times` shows. None for a disabled automation (it does not run on its trigger) nor for
 * the triggers that are not a schedule (an action, a webhook call, a person).
 */
export function automationNextRunTimes(settings: AutomationSettings, now: number): Date[] {
  if (settings.disabled) return [];
  const schedule = scheduleOf(settings);
  if (schedule === null || Object.keys(scheduleProblems(schedule)).length > 0) return [];
  return nextDueTimes(schedule, new Date(now), NEXT_RUN_TIMES_SHOWN);
}

/** A glob field, refused naming it when globs.ts cannot read it. */
function glob(field: string, value: string | null): string | null {
  if (value === null) return null;
  const parsed = parsePathGlob(value);
  if (!parsed.ok) throw invalid(field, parsed.problem);
  return value;
}

/** A destination, refused naming `destinations` when tokens.ts cannot read it (an unknown token, a climb). */
function checkedDestination(destination: string): string {
  const parsed = parseDestination(destination);
  if (!parsed.ok) throw invalid('destinations', parsed.problem);
  return destination;
}

function checkType(raw: string): string {
  if ((AUTOMATION_TYPES as readonly string[]).includes(raw)) return raw;
  const reason = Object.hasOwn(TYPES_NOT_OFFERED, raw) ? TYPES_NOT_OFFERED[raw] : undefined;
  if (reason !== undefined) throw errors.modelSaveError({ automation: [`${raw} is not offered: ${reason}`] });
  throw invalid('automation', `must be one of ${AUTOMATION_TYPES.join(', ')}`);
}

function checkTrigger(raw: string): string {
  if ((AUTOMATION_TRIGGERS as readonly string[]).includes(raw)) return raw;
  const reason = Object.hasOwn(TRIGGERS_NOT_OFFERED, raw) ? TRIGGERS_NOT_OFFERED[raw] : undefined;
  if (reason !== undefined) throw errors.modelSaveError({ trigger: [`${raw} is not offered: ${reason}`] });
  throw invalid('trigger', `must be one of ${AUTOMATION_TRIGGERS.join(', ')}`);
}

function oneOf(field: string, raw: string | null, values: readonly string[]): string | null {
  if (raw === null || raw === '') return null;
  if (!values.includes(raw)) throw invalid(field, `must be one of ${values.join(', ')}`);
  return raw;
}

function wholeIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

function text(field: string, raw: string | null, max: number): string {
  const value = (raw ?? '').trim();
  if (value.length > max) throw invalid(field, `is too long (at most ${max} characters)`);
  return value;
}

function optionalText(field: string, raw: string | null, max: number): string | null {
  const value = text(field, raw, max);
  return value === '' ? null : value;
}

function timeOfDay(raw: string): string {
  if (!TIME_OF_DAY.test(raw)) throw invalid('schedule_times_of_day', 'must be times of day as HH:MM, 24-hour');
  return raw;
}

/** A zone name, kept as given: a Rails name (Eastern Time (US & Canada)) or an IANA one (time-zones.ts). */
function timeZone(field: string, raw: string | null): string | null {
  const value = optionalText(field, raw, 64);
  if (value === null) return null;
  const found = lookUpTimeZone(value);
  if (!found.ok) throw invalid(field, found.problem);
  return value;
}

/** A folder glob, kept without leading or trailing slashes, as Files.com keeps it. */
function folderGlob(raw: string | null): string | null {
  const value = optionalText('path', raw, MAX_PATH);
  if (value === null) return null;
  const trimmed = value.replace(/^\/+|\/+$/g, '');
  if (trimmed.split('/').some((segment) => segment === '..')) throw invalid('path', 'may not climb out of the Workspace (..)');
  return trimmed === '' ? null : trimmed;
}

function importUrl(raw: unknown): ImportUrl {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('import_urls', 'must be objects with a url');
  const entry = raw as Record<string, unknown>;
  const url = typeof entry.url === 'string' ? entry.url : '';
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) throw invalid('import_urls', 'each url must be an http or https URL');
  const method = entry.method === undefined ? 'get' : String(entry.method).toLowerCase();
  if (method !== 'get' && method !== 'post') throw invalid('import_urls', 'method must be get or post');
  const headers = entry.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw invalid('import_urls', 'headers must be an object of text values');
  }
  if (entry.content !== undefined && typeof entry.content !== 'string') throw invalid('import_urls', 'content must be text');
  if (entry.name !== undefined && typeof entry.name !== 'string') throw invalid('import_urls', 'name must be text');
  return {
    ...(entry.name === undefined ? {} : { name: entry.name as string }), url, method, headers: headers as Record<string, string>,
    ...(entry.content === undefined ? {} : { content: entry.content as string }),
  };
}

/** Ids as an array or Files.com's comma-separated string, each a record id, kept once each. */
function idList(field: string, raw: string | number[] | null): number[] {
  const items = raw === null ? [] : typeof raw === 'string' ? raw.split(',').map((part) => part.trim()).filter((part) => part !== '') : raw;
  const ids = items.map((item) => (typeof item === 'number' ? item : /^\d{1,10}$/.test(item) ? Number(item) : NaN));
  if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) throw invalid(field, 'must be record ids, as an array or comma-separated');
  return [...new Set(ids)];
}
