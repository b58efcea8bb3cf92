import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import {
  type AutomationInput, type AutomationSortField, automationSortValue, type AutomationView, createAutomation, deleteAutomation, getAutomation,
  automationNextRunTimes, automationScheduleInWords, listAutomations, runAutomationManually, updateAutomation, webhookPath,
} from '../../automations/index.js';
import { isoTime } from '../../lib/time.js';
import { API_ROOT } from '../api-paths.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../sorted-cursor.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { publicBaseUrl } from './files/transfer-urls.js';
import { AUTOMATION_LIST_PARAMETERS, automationFilterOf } from './automation-list-parameters.js';

// /automations (docs/automations.md): Files.com's Automation model (the classic, pre-v2 one),
// field for field.

const NullableText = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

const AutomationBody = Type.Object({
  id: Type.Integer(),
  workspace_id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  automation: Type.String({ description: 'create_folder, delete_file, copy_file, move_file or import_file' }),
  trigger: Type.String({ description: 'manual, daily, custom_schedule, webhook or action' }),
  interval: NullableText,
  recurring_day: NullableInteger,
  recurring_days: Type.Array(Type.Integer()),
  schedule: Type.Union([Type.Object({ days_of_week: Type.Array(Type.Integer()), times_of_day: Type.Array(Type.String()), time_zone: NullableText }), Type.Null()]),
  schedule_days_of_week: Type.Array(Type.Integer()),
  schedule_times_of_day: Type.Array(Type.String()),
  schedule_time_zone: NullableText,
  human_readable_schedule: NullableText,
  next_run_times: Type.Array(Type.String(), { description: "Atrium's own, read-only: the next 5 times a daily or custom_schedule automation is due; empty for other triggers and when disabled" }),
  path: NullableText,
  source: NullableText,
  exclude_pattern: NullableText,
  destinations: Type.Array(Type.String()),
  destination_replace_from: NullableText,
  destination_replace_to: NullableText,
  path_time_zone: NullableText,
  trigger_actions: Type.Array(Type.String()),
  webhook_url: Type.Union([Type.String({ description: 'with trigger webhook: whole in the answer that made it, its secret masked afterwards' }), Type.Null()]),
  disabled: Type.Boolean(),
  deleted: Type.Boolean(),
  last_modified_at: Type.String({ description: 'unchanged by a change of name or description only' }),
  overwrite_files: Type.Boolean(),
  always_overwrite_size_matching_files: Type.Boolean(),
  flatten_destination_structure: Type.Boolean(),
  ignore_locked_folders: Type.Boolean(),
  retry_on_failure_interval_in_minutes: NullableInteger,
  retry_on_failure_number_of_attempts: NullableInteger,
  import_urls: Type.Array(Type.Object({}, { additionalProperties: true })),
  user_ids: Type.Array(Type.Integer()),
  group_ids: Type.Array(Type.Integer()),
  user_id: NullableInteger,
  value: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

/** The automation as the API answers it; `now` (epoch ms) is when its next run times are counted from. */
function automationBody(request: FastifyRequest, { automation, webhookSecret }: AutomationView, now: number): Static<typeof AutomationBody> {
  const s = automation.settings;
  return {
    id: automation.id,
    workspace_id: automation.workspaceId,
    name: s.name,
    description: s.description,
    automation: s.automation,
    trigger: s.trigger,
    interval: s.interval,
    recurring_day: s.recurring_days[0] ?? null,
    recurring_days: s.recurring_days,
    schedule: s.trigger === 'custom_schedule' ? { days_of_week: s.schedule_days_of_week, times_of_day: s.schedule_times_of_day, time_zone: s.schedule_time_zone } : null,
    schedule_days_of_week: s.schedule_days_of_week,
    schedule_times_of_day: s.schedule_times_of_day,
    schedule_time_zone: s.schedule_time_zone,
    human_readable_schedule: automationScheduleInWords(s),
    next_run_times: automationNextRunTimes(s, now).map((due) => isoTime(due.getTime())),
    path: s.path,
    source: s.source,
    exclude_pattern: s.exclude_pattern,
    destinations: s.destinations,
    destination_replace_from: s.destination_replace_from,
    destination_replace_to: s.destination_replace_to,
    path_time_zone: s.path_time_zone,
    trigger_actions: s.trigger_actions,
    webhook_url: automation.webhookId === null ? null : `${publicBaseUrl(request)}${API_ROOT}${webhookPath(automation.webhookId, webhookSecret)}`,
    disabled: s.disabled,
    deleted: false,
    last_modified_at: isoTime(automation.lastModifiedAt),
    overwrite_files: s.overwrite_files,
    always_overwrite_size_matching_files: s.always_overwrite_size_matching_files,
    flatten_destination_structure: s.flatten_destination_structure,
    ignore_locked_folders: s.ignore_locked_folders,
    retry_on_failure_interval_in_minutes: s.retry_on_failure_interval_in_minutes,
    retry_on_failure_number_of_attempts: s.retry_on_failure_number_of_attempts,
    import_urls: s.import_urls as unknown as Record<string, unknown>[],
    user_ids: s.user_ids,
    group_ids: s.group_ids,
    user_id: automation.userId,
    value: s.value,
  };
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));
const IdsParameter = Nullable(Type.Union([Type.String({ maxLength: 65_536 }), Type.Array(Type.Integer())], { description: 'an array, or comma-separated' }));

const AutomationFields = {
  name: Text(16_384),
  description: Text(16_384),
  trigger: Type.Optional(Type.String({ maxLength: 64 })),
  interval: Text(64),
  recurring_day: Nullable(Type.Integer()),
  recurring_days: Nullable(Type.Array(Type.Integer(), { maxItems: 400 })),
  schedule_days_of_week: Nullable(Type.Array(Type.Integer(), { maxItems: 7 })),
  schedule_times_of_day: Nullable(Type.Array(Type.String({ maxLength: 8 }), { maxItems: 1440 })),
  schedule_time_zone: Text(256),
  path: Text(8192),
  source: Text(8192),
  exclude_pattern: Text(8192),
  destinations: Nullable(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 100 })),
  destination_replace_from: Text(8192),
  destination_replace_to: Text(8192),
  path_time_zone: Text(256),
  trigger_actions: Nullable(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 })),
  disabled: Type.Optional(Type.Boolean()),
  overwrite_files: Type.Optional(Type.Boolean()),
  flatten_destination_structure: Type.Optional(Type.Boolean()),
  always_overwrite_size_matching_files: Type.Optional(Type.Boolean()),
  ignore_locked_folders: Type.Optional(Type.Boolean()),
  retry_on_failure_interval_in_minutes: Nullable(Type.Integer()),
  retry_on_failure_number_of_attempts: Nullable(Type.Integer()),
  import_urls: Nullable(Type.Array(Type.Unknown(), { maxItems: 100 })),
  user_ids: IdsParameter,
  group_ids: IdsParameter,
  value: Nullable(Type.Record(Type.String(), Type.Unknown())),
  // Declared so that a change is refused by name rather than dropped: an automation's Workspace is set once.
  workspace_id: Type.Optional(RecordId()),
};

export function automationRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/automations', {
    schema: {
      summary: 'List the automations of the request context (administrators of it)',
      description: 'Sorts by `workspace_id`, `name`, `automation`, `last_modified_at` or `disabled`; filters by `disabled`, `last_modified_at`, `workspace_id`, `automation`, and `last_modified_at` ranges.',
      querystring: Type.Object({ ...paginationQuery, ...listParameterQuery(AUTOMATION_LIST_PARAMETERS) }),
      response: { 200: Type.Array(AutomationBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(AUTOMATION_LIST_PARAMETERS, request.query);
    const order = requestedOrder<AutomationSortField>(parameters.sort);
    const page = readSortedPage('automations', request.query, order);
    // One row more than the page, to learn whether another page follows.
    const automations = await listAutomations(callOf(request, deps), automationFilterOf(parameters), { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('automations', automations, page, order === undefined, (automation) => ({ value: automationSortValue(automation, page.sort.field), id: automation.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    const now = deps.clock.now();
    return listed.rows.map((automation) => automationBody(request, { automation }, now));
  });

  app.post('/automations', {
    schema: {
      summary: 'Create an automation (administrators of its Workspace)',
      body: Type.Object({ automation: Type.String({ maxLength: 64 }), ...AutomationFields }),
      response: { 201: AutomationBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const created = await createAutomation(callOf(request, deps), request.body as AutomationInput & { automation: string });
    return reply.code(201).send(automationBody(request, created, deps.clock.now()));
  });

  app.get('/automations/:id', {
    schema: { summary: 'Show an automation', params: IdParams, response: { 200: AutomationBody, ...errorResponses } },
  }, async (request) => automationBody(request, { automation: await getAutomation(callOf(request, deps), request.params.id) }, deps.clock.now()));

  app.route({
    method: UPDATE_METHODS,
    url: '/automations/:id',
    schema: {
      summary: "Change an automation's fields (its Workspace stays)",
      params: IdParams,
      body: Type.Object({ automation: Type.Optional(Type.String({ maxLength: 64 })), ...AutomationFields }),
      response: { 200: AutomationBody, ...errorResponses },
    },
    handler: async (request) => automationBody(request, await updateAutomation(callOf(request, deps), request.params.id, request.body as AutomationInput), deps.clock.now()),
  });

  app.delete('/automations/:id', {
    schema: { summary: 'Delete an automation and its runs', params: IdParams, response: { 204: Type.Null(), ...errorResponses } },
  }, async (request, reply) => {
    await deleteAutomation(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/automations/:id/manual_run', {
    schema: {
      summary: 'Queue a run of an automation now (not for trigger action)',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    await runAutomationManually(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });
}
