import { Type } from 'typebox';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { DEFAULT_PER_PAGE, setCursorHeaders } from '../../pagination.js';
import { errorResponses } from '../../schemas.js';
import { listingMatchKey } from '../../../files/index.js';
import { decodeFolderCursor, encodeFolderCursor } from './cursor.js';
import { entryBody } from './entry-body.js';
import { sessionAndPath } from './file-session.js';
import { listingOptionsOf } from './listing-options.js';
import { renderedListing, renderedSearch } from './listing-response.js';
import { decodeSubtreeCursor, encodeSubtreeCursor } from './search-cursor.js';
import { listingSortOf } from './listing-sort.js';
import { providedMtimeOf } from './provided-mtime.js';
import { CreateFolderBody, CreateFolderQuery, EntryBody, flagValue, ListingEntryBody, missingBodyAsEmpty, ListingQuery, PathParams } from './schemas.js';

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
        summary: 'List a folder: folders first, in the order sort_by asks (by path unless told), each entry with the caller\'s permission letters; '
          + 'search, filter, type and modified_at_datetime keep the entries that match, and search_all searches every folder below',
        querystring: ListingQuery,
        response: { 200: Type.Array(ListingEntryBody), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'folders');
      const folderKey = session.locate(path).key;
      const limit = request.query.per_page ?? DEFAULT_PER_PAGE;
      const sort = listingSortOf(request.query.sort_by);
      const { match, subtree, rendering } = listingOptionsOf(request.query, sort);
      const matchKey = listingMatchKey(match);
      let json: string;
      let cursor: string | undefined;
      if (subtree) {
        const after = await decodeSubtreeCursor(deps.db, deps.clock.now(), folderKey, matchKey, request.query.cursor);
        const page = await renderedSearch(deps.db, session, path, folderKey, { match, after, limit }, rendering);
        json = page.json;
        cursor = page.next === undefined ? undefined : await encodeSubtreeCursor(deps.db, deps.clock.now(), folderKey, matchKey, page.next);
      } else {
        const after = decodeFolderCursor(folderKey, matchKey, sort, request.query.cursor);
        const page = await renderedListing(deps.db, session, path, folderKey, { sort, after, limit, match }, rendering);
        json = page.json;
        cursor = page.next === undefined ? undefined : encodeFolderCursor(folderKey, matchKey, sort, page.next);
      }
      // Sent only while more may follow (never on the last page): clients follow it until it is absent.
      if (cursor !== undefined) setCursorHeaders(reply, deps.headers, cursor);
      // Already JSON in the response schema's shape (built by entryBody): Fastify sends a string
      // with a JSON content type as it is, which the schema's types cannot express.
      return reply.type('application/json; charset=utf-8').send(json as never);
    });

    app.post(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Create a folder (write on the parent; mkdir_parents creates missing parents; provided_mtime is kept as the client\'s modification time)',
        querystring: CreateFolderQuery,
        body: CreateFolderBody,
        response: { 201: EntryBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'folders');
      const mkdirParents = flagValue(request.body.mkdir_parents ?? request.query.mkdir_parents, false);
      const providedMtime = providedMtimeOf(request.body.provided_mtime);
      return reply.code(201).send(entryBody(await session.createFolder(path, { mkdirParents, providedMtime })));
    });
  }
}
