import { Type } from 'typebox';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { DEFAULT_PER_PAGE, setCursorHeaders } from '../../pagination.js';
import { errorResponses } from '../../schemas.js';
import { decodeFolderCursor, encodeFolderCursor } from './cursor.js';
import { entryBody } from './entry-body.js';
import { sessionAndPath } from './file-session.js';
import { renderedListing } from './listing-response.js';
import { listingSortOf } from './listing-sort.js';
import { CreateFolderBody, CreateFolderQuery, EntryBody, flagValue, missingBodyAsEmpty, ListingQuery, PathParams } from './schemas.js';

/**
 * GET and POST /folders/<path> (contract 6). The root is `/folders`, `/folders/` or `/folders/%2F`;
 * the path may be raw or percent-encoded (request-path.ts).
 */
export function folderRoutes(app: ApiInstance, deps: RouteDeps): void {
  for (const url of ['/folders', '/folders/*']) {
    app.get(url, {
      config: { operation: 'file' },
      schema: {
        params: PathParams,
        summary: 'List a folder: folders first, in the order sort_by asks (by path unless told), each entry with the caller\'s permission letters',
        querystring: ListingQuery,
        response: { 200: Type.Array(EntryBody), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'folders');
      const folderKey = session.locate(path).key;
      const limit = request.query.per_page ?? DEFAULT_PER_PAGE;
      const sort = listingSortOf(request.query.sort_by);
      const page = await renderedListing(deps.db, session, path, folderKey, { sort, after: decodeFolderCursor(folderKey, sort, request.query.cursor), limit });
      if (page.next !== undefined) {
        // Sent only when another page exists: clients follow it until it is absent.
        setCursorHeaders(reply, deps.headers, encodeFolderCursor(folderKey, sort, page.next));
      }
      // Already JSON in the response schema's shape (built by entryBody): Fastify sends a string
      // with a JSON content type as it is, which the schema's types cannot express.
      return reply.type('application/json; charset=utf-8').send(page.json as never);
    });

    app.post(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Create a folder (write on the parent; mkdir_parents creates missing parents)',
        querystring: CreateFolderQuery,
        body: CreateFolderBody,
        response: { 201: EntryBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'folders');
      const mkdirParents = flagValue(request.body.mkdir_parents ?? request.query.mkdir_parents, false);
      return reply.code(201).send(entryBody(await session.createFolder(path, { mkdirParents })));
    });
  }
}
