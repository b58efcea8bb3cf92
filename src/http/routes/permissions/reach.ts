import { Type } from 'typebox';
import { effectiveAccessExport, reachOfPath } from '../../../grants/index.js';
import { errors } from '../../../errors/catalogue.js';
import { callOf } from '../../call.js';
import type { ApiInstance } from '../../fastify-types.js';
import { readPage, sendPage } from '../../pagination.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { reachNames, reachRowJson } from './reach-body.js';
import { sendExportCsv } from './reach-csv.js';
import { ExportCsvBody, ReachQuery, ReachRowBody } from './reach-schemas.js';

/** The access review's reads (docs/permissions.md): who can reach a path, and the effective-access export. Administrative. */
export function reachRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/permissions/reach', {
    schema: {
      summary: 'List every user who can reach a path in the request context, with the level, the role and the grants that give it',
      querystring: ReachQuery,
      response: { 200: Type.Array(ReachRowBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const query = request.query;
    const path = query.path ?? query.filter?.path;
    if (path === undefined) throw errors.paramsRequired({ path: ['is required'] });
    const page = readPage<number>('permissions-reach', query, 'id');
    const call = callOf(request, deps);
    const { rows } = await reachOfPath(call, { path, ...(query.type === undefined ? {} : { type: query.type }) }, page);
    const pageRows = sendPage(reply, deps.headers, 'permissions-reach', rows, page.limit, (row) => row.user.id);
    const names = await reachNames(call, pageRows);
    return pageRows.map((row) => reachRowJson(call, row, names));
  });

  app.get('/permissions/reach/export', {
    schema: {
      summary: 'Export every (user, path, level, role, because) of the request\'s Workspace as CSV (administrators of the context)',
      produces: ['text/csv'],
      response: { 200: ExportCsvBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const call = callOf(request, deps);
    const paths = await effectiveAccessExport(call);
    return sendExportCsv(reply, call, paths);
  });
}
