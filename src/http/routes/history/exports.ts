import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { createHistoryExport, getHistoryExport, historyExportPage, historyExportRecords, HISTORY_ACTIONS, type HistoryAction, type HistoryExport, type HistoryQuery } from '../../../history/index.js';
import { pathFrameOf, type Call } from '../../../access/index.js';
import { errors } from '../../../errors/catalogue.js';
import { csvLine } from '../../../lib/csv.js';
import { parseRecordId } from '../../../lib/record-id.js';
import { API_ROOT } from '../../api-paths.js';
import { callOf } from '../../call.js';
import type { ApiInstance } from '../../fastify-types.js';
import { paginationQuery, readPage, sendPage } from '../../pagination.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../../schemas.js';
import { publicBaseUrl } from '../files/transfer-urls.js';
import { HistoryExportBody, historyExportBody, HistoryExportResultBody, historyExportResultBody, RESULT_COLUMNS } from './export-body.js';
import { dateTimeParam } from './history-query.js';

const text = Type.Optional(Type.String({ maxLength: 5000 }));

/** The SDK's HistoryExport.create parameters Atrium filters by. */
const ExportCreateBody = Type.Object({
  user_id: Type.Optional(RecordId({ description: '0 or absent: the caller' })),
  start_at: text,
  end_at: text,
  query_action: Type.Optional(Type.Union(HISTORY_ACTIONS.map((value) => Type.Literal(value)))),
  query_interface: Type.Optional(Type.String({ maxLength: 100 })),
  query_user_id: Type.Optional(Type.String({ maxLength: 100, description: 'A user id (the SDK sends it as a string)' })),
  query_path: text,
  query_folder: text,
  query_src: text,
  query_destination: text,
  query_ip: Type.Optional(Type.String({ maxLength: 100 })),
  query_username: text,
  query_failure_type: Type.Optional(Type.String({ maxLength: 100 })),
}, { additionalProperties: true });

/** Filters of the SDK's list that Atrium's records cannot answer: refused rather than ignored, so no export is wider than asked. */
const UNSUPPORTED = ['query_file_id', 'query_parent_id', 'query_target_id', 'query_target_name', 'query_target_permission', 'query_target_user_id',
  'query_target_username', 'query_target_platform', 'query_target_permission_set'] as const;

/** POST /history_exports, GET /history_exports/<id>, GET /history_export_results, and the downloads. */
export function historyExportRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.post('/history_exports', {
    schema: { summary: 'Export the History records a query selects (CSV or JSON Lines)', body: ExportCreateBody, response: { 201: HistoryExportBody, ...errorResponses } },
  }, async (request, reply) => {
    const call = callOf(request, deps);
    const body = request.body;
    const unsupported = UNSUPPORTED.filter((name) => (body as Record<string, unknown>)[name] !== undefined);
    if (unsupported.length > 0) throw errors.paramsInvalid(Object.fromEntries(unsupported.map((name) => [name, ['is not supported by this server']])));
    if (body.user_id !== undefined && body.user_id !== 0 && body.user_id !== call.caller.user?.id) {
      throw errors.paramsInvalid({ user_id: ['an export is made for the caller: send 0 or leave it out'] });
    }
    const created = await createHistoryExport(call, exportQueryOf(body));
    return reply.code(201).send(historyExportBody(created, resultsUrl(request, created.id)));
  });

  app.get('/history_exports/:id', {
    schema: { summary: 'Show a History export', params: IdParams, response: { 200: HistoryExportBody, ...errorResponses } },
  }, async (request) => {
    const found = await getHistoryExport(callOf(request, deps), request.params.id);
    return historyExportBody(found, resultsUrl(request, found.id));
  });

  app.get('/history_export_results', {
    schema: {
      summary: 'The records of a History export, oldest first',
      querystring: Type.Object({ ...paginationQuery, history_export_id: RecordId(), user_id: Type.Optional(RecordId()) }),
      response: { 200: Type.Array(HistoryExportResultBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const call = callOf(request, deps);
    const found = await getHistoryExport(call, request.query.history_export_id);
    const page = readPage<number>(`history-export-${found.id}`, request.query, 'number');
    const rows = await historyExportPage(call, found, page.after, page.limit + 1);
    const frame = await pathFrameOf(call.db, call.caller, found.workspaceId);
    return sendPage(reply, deps.headers, `history-export-${found.id}`, rows, page.limit, (row) => row.id).map((row) => historyExportResultBody(frame, row));
  });

  for (const format of ['csv', 'jsonl'] as const) {
    app.get(`/history_exports/:id/results.${format}`, {
      schema: { summary: `Download a History export as ${format === 'csv' ? 'CSV' : 'JSON Lines'}`, params: IdParams },
    }, async (request, reply) => {
      const call = callOf(request, deps);
      const found = await getHistoryExport(call, request.params.id);
      const stream = Readable.from(format === 'csv' ? csvLines(call, found) : jsonLines(call, found));
      return reply
        .header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="history-export-${found.id}.${format}"`)
        .send(stream);
    });
  }
}

async function* csvLines(call: Call, found: HistoryExport): AsyncGenerator<string> {
  yield csvLine(RESULT_COLUMNS);
  const frame = await pathFrameOf(call.db, call.caller, found.workspaceId);
  for await (const row of historyExportRecords(call, found)) {
    const body = historyExportResultBody(frame, row);
    yield csvLine(RESULT_COLUMNS.map((column) => body[column]));
  }
}

async function* jsonLines(call: Call, found: HistoryExport): AsyncGenerator<string> {
  const frame = await pathFrameOf(call.db, call.caller, found.workspaceId);
  for await (const row of historyExportRecords(call, found)) yield `${JSON.stringify(historyExportResultBody(frame, row))}\n`;
}

function resultsUrl(request: FastifyRequest, id: number): string {
  return `${publicBaseUrl(request)}${API_ROOT}/history_exports/${id}/results.csv`;
}

function exportQueryOf(body: Static<typeof ExportCreateBody>): HistoryQuery {
  const startAt = dateTimeParam('start_at', body.start_at);
  const endAt = dateTimeParam('end_at', body.end_at);
  const entries: [keyof HistoryQuery, unknown][] = [
    ['action', body.query_action as HistoryAction | undefined],
    ['interface', body.query_interface],
    ['userId', queryUserId(body.query_user_id)],
    ['path', body.query_path],
    ['folder', body.query_folder],
    ['source', body.query_src],
    ['destination', body.query_destination],
    ['ip', body.query_ip],
    ['username', body.query_username],
    ['failureType', body.query_failure_type],
    ['startAt', startAt],
    ['endAt', endAt],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined && value !== '')) as HistoryQuery;
}

/** `query_user_id` arrives as a string (the SDK's type); it is an id like any other. */
function queryUserId(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const id = parseRecordId(value);
  if (id === undefined) throw errors.paramsInvalid({ query_user_id: ['must be a user id'] });
  return id;
}
