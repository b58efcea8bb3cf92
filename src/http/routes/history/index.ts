import { Type } from 'typebox';
import { pathFrameOf } from '../../../access/index.js';
import { listHistory, type HistoryListing } from '../../../history/index.js';
import { callOf } from '../../call.js';
import { readListParameters } from '../../list-parameters.js';
import type { ApiInstance } from '../../fastify-types.js';
import { readPage, sendPage } from '../../pagination.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses, RecordId } from '../../schemas.js';
import { capturedPath } from '../files/request-path.js';
import { HistoryBody, historyBody } from './history-body.js';
import { HISTORY_LIST_PARAMETERS } from './history-list-parameters.js';
import { HistoryListQuery, historyDescending, historyQueryOf } from './history-query.js';
import { historyExportRoutes } from './exports.js';

/**
 * Files.com's History lists (docs/history.md): the site's, sign-ins, one user's, one folder's and
 * one file's. Each shows what the caller may see in the request context, newest first.
 */
export function historyRoutes(app: ApiInstance, deps: RouteDeps): void {
  const list = (url: string, summary: string, listingOf: (request: { params: Record<string, unknown> } & Parameters<typeof capturedPath>[0]) => HistoryListing, params = Type.Object({})) => {
    app.get(url, {
      schema: { summary, params, querystring: HistoryListQuery, response: { 200: Type.Array(HistoryBody), ...errorResponses } },
    }, async (request, reply) => {
      const parameters = readListParameters(HISTORY_LIST_PARAMETERS, request.query);
      const descending = historyDescending(parameters);
      // The cursor names the order it was made in: a cursor of one order cannot page the other.
      const listingName = descending ? 'history' : 'history-ascending';
      const page = readPage<number>(listingName, request.query, 'number');
      const call = callOf(request, deps);
      const rows = await listHistory(call, listingOf(request as never), historyQueryOf(request.query, parameters), {
        descending, limit: page.limit + 1, ...(page.after === undefined ? {} : { after: page.after }),
      });
      const frame = await pathFrameOf(call.db, call.caller, call.requestWorkspaceId);
      return sendPage(reply, deps.headers, listingName, rows, page.limit, (row) => row.id).map((row) => historyBody(frame, row));
    });
  };

  list('/history', 'The site\'s history: every recorded action the caller may see', () => ({ kind: 'site' }));
  list('/history/login', 'Sign-ins, failed sign-ins, sign-outs and failed reauthentications', () => ({ kind: 'login' }));
  list('/history/users/:user_id', 'The actions of one user', (request) => ({ kind: 'user', userId: request.params.user_id as number }),
    Type.Object({ user_id: RecordId() }));
  for (const [resource, kind] of [['folders', 'folder'], ['files', 'file']] as const) {
    const summary = kind === 'folder' ? 'The file actions on a folder and everything below it' : 'The actions on one file';
    list(`/history/${resource}`, summary, (request) => ({ kind, path: capturedPath(request, `history/${resource}`) }));
    list(`/history/${resource}/*`, summary, (request) => ({ kind, path: capturedPath(request, `history/${resource}`) }), Type.Object({ '*': Type.String() }));
  }
  historyExportRoutes(app, deps);
}
