import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import {
  AUTOMATION_RUN_STATUSES, type AutomationRun, type AutomationRunSortField, automationRunSortValue, getAutomationRun, getAutomationRunLog, listRunsOfAutomation,
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
import { publicBaseUrl } from './files/transfer-urls.js';
import { AUTOMATION_RUN_LIST_PARAMETERS, automationRunFilterOf } from './automation-list-parameters.js';

// /automation_runs (docs/automations.md#runs): Files.com's AutomationRun model (pre-v2), and the
// log its `status_messages_url` names.

const NullableTime = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

const AutomationRunBody = Type.Object({
  id: Type.Integer(),
  automation_id: Type.Integer(),
  workspace_id: Type.Integer(),
  status: Type.String({ description: AUTOMATION_RUN_STATUSES.join(', ') }),
  created_at: Type.String({ description: 'when the run was queued' }),
  completed_at: NullableTime,
  runtime: Type.Union([Type.Number(), Type.Null()]),
  successful_operations: Type.Integer(),
  failed_operations: Type.Integer(),
  retry_at: NullableTime,
  retried_at: NullableTime,
  retried_in_run_id: NullableInteger,
  retry_of_run_id: NullableInteger,
  status_messages_url: Type.String({ description: "the run's log, as text, to those who see its automation" }),
});

const time = (value: number | null) => (value === null ? null : isoTime(value));

function runBody(request: FastifyRequest, run: AutomationRun): Static<typeof AutomationRunBody> {
  return {
    id: run.id,
    automation_id: run.automationId,
    workspace_id: run.workspaceId,
    status: run.status,
    created_at: isoTime(run.createdAt),
    completed_at: time(run.completedAt),
    runtime: run.runtime,
    successful_operations: run.successfulOperations,
    failed_operations: run.failedOperations,
    retry_at: time(run.retryAt),
    retried_at: time(run.retriedAt),
    retried_in_run_id: run.retriedInRunId,
    retry_of_run_id: run.retryOfRunId,
    status_messages_url: `${publicBaseUrl(request)}${API_ROOT}/automation_runs/${run.id}/status_messages`,
  };
}

export function automationRunRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/automation_runs', {
    schema: {
      summary: "List an automation's runs (administrators of its Workspace)",
      description: 'Sorts by `automation_id`, `created_at` or `status`; filters by `status`, `workspace_id`, `automation_id`.',
      querystring: Type.Object({ automation_id: RecordId({ minimum: 1 }), ...paginationQuery, ...listParameterQuery(AUTOMATION_RUN_LIST_PARAMETERS) }),
      response: { 200: Type.Array(AutomationRunBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(AUTOMATION_RUN_LIST_PARAMETERS, request.query);
    const order = requestedOrder<AutomationRunSortField>(parameters.sort);
    const page = readSortedPage('automation_runs', request.query, order);
    const filter = automationRunFilterOf(request.query.automation_id, parameters);
    // One row more than the page, to learn whether another page follows.
    const runs = await listRunsOfAutomation(callOf(request, deps), filter ?? { automationId: request.query.automation_id }, { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('automation_runs', filter === undefined ? [] : runs, page, order === undefined, (run) => ({ value: automationRunSortValue(run, page.sort.field), id: run.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    return listed.rows.map((run) => runBody(request, run));
  });

  app.get('/automation_runs/:id', {
    schema: { summary: 'Show a run of an automation', params: IdParams, response: { 200: AutomationRunBody, ...errorResponses } },
  }, async (request) => runBody(request, await getAutomationRun(callOf(request, deps), request.params.id)));

  app.get('/automation_runs/:id/status_messages', {
    schema: {
      summary: "A run's log, as plain text",
      params: IdParams,
      produces: ['text/plain'],
      response: { 200: Type.String(), ...errorResponses },
    },
  }, async (request, reply) => {
    const log = await getAutomationRunLog(callOf(request, deps), request.params.id);
    return reply.header('Content-Type', 'text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send(log);
  });
}
