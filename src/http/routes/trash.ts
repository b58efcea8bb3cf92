import { Type } from 'typebox';
import type { TrashEntry, TrashTreeItem } from '../../files/index.js';
import { encodeCursor } from '../../lib/cursor.js';
import { isoTime } from '../../lib/time.js';
import type { ApiInstance } from '../fastify-types.js';
import { originOf } from '../origin.js';
import { paginationQuery, readPage, setCursorHeaders } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams } from '../schemas.js';
import { entryBody } from './files/entry-body.js';
import { EntryBody } from './files/schemas.js';

const TrashBody = Type.Object({
  id: Type.Integer({ description: 'names it in GET, POST .../restore and DELETE /trash/<id>' }),
  path: Type.String({ description: 'where it was, as the request Workspace shows it' }),
  display_name: Type.String(),
  type: Type.Union([Type.Literal('file'), Type.Literal('directory')]),
  size: Type.Integer({ description: 'bytes of the files it holds (a file: its own size)' }),
  files: Type.Integer({ description: 'files it holds (a file: 1)' }),
  entries: Type.Integer({ description: 'files and folders it holds, itself included' }),
  deleted_at: Type.String(),
  deleted_by_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the user who deleted it; null for a site-wide key or an automation without a user' }),
  expires_at: Type.String({ description: 'when the retention purge removes it, at the site\'s trash_retention_days now' }),
});

const TreeItemBody = Type.Object({
  path: Type.String({ description: 'below the deleted folder; empty for the deleted entry itself' }),
  type: Type.Union([Type.Literal('file'), Type.Literal('directory')]),
  size: Type.Union([Type.Integer(), Type.Null()]),
  sha256: Type.Union([Type.String(), Type.Null()]),
  mtime: Type.String(),
});

const TrashDetailBody = Type.Object({
  ...TrashBody.properties,
  tree: Type.Array(TreeItemBody, { description: `what it held, root first, at most 1000 entries` }),
  tree_complete: Type.Boolean({ description: 'false when the tree has more entries than shown' }),
});

const RestoredBody = Type.Object({
  path: Type.String({ description: 'where it was restored, as the request Workspace shows it' }),
  renamed: Type.Boolean({ description: 'true when its place was taken and it was restored beside it under a new name, `name (1)`...' }),
  file: EntryBody,
});

/** Entries of a trashed tree shown by GET /trash/<id>. */
const TREE_LIMIT = 1000;

const ListTrashQuery = Type.Object({
  ...paginationQuery,
  path: Type.Optional(Type.String({ maxLength: 4096, description: 'only deletions of this path or of what was inside it' })),
});

function trashBody(entry: TrashEntry) {
  return {
    id: entry.id, path: entry.path, display_name: entry.name, type: entry.type, size: entry.size, files: entry.files, entries: entry.entries,
    deleted_at: isoTime(entry.deletedAt), deleted_by_id: entry.deletedById, expires_at: isoTime(entry.expiresAt),
  };
}

function treeItemBody(item: TrashTreeItem) {
  return { path: item.path, type: item.type, size: item.size, sha256: item.sha256, mtime: isoTime(item.mtime) };
}

/**
 * /trash (docs/files.md#trash-and-versions): the deletions the caller could make now, whichever
 * door deleted them, to look at, restore, or purge for good. Files.com has no trash API: this one
 * follows the style of the others (cursor paging, ids, actions as POST .../<action>). The file
 * session decides who sees what (access/recovery-authority.ts).
 */
export function trashRoutes(app: ApiInstance, deps: RouteDeps): void {
  const sessionOf = (request: Parameters<typeof originOf>[0]) => deps.files.session(request.caller, request.requestWorkspaceId, originOf(request));

  app.get('/trash', {
    config: { operation: 'file' },
    schema: {
      summary: 'The deletions in the trash the caller could make now (delete on the path they had), newest first; path: only those of that path and inside it',
      querystring: ListTrashQuery,
      response: { 200: Type.Array(TrashBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const session = await sessionOf(request);
    const page = readPage<number>('trash', request.query, 'id');
    const { entries, next } = await session.listTrash({ within: request.query.path, beforeId: page.after, limit: page.limit });
    if (next !== undefined) setCursorHeaders(reply, deps.headers, encodeCursor('trash', next));
    return entries.map(trashBody);
  });

  app.get('/trash/:id', {
    config: { operation: 'file' },
    schema: {
      summary: `A deletion in the trash, with what it held (the first ${TREE_LIMIT} entries)`,
      params: IdParams,
      response: { 200: TrashDetailBody, ...errorResponses },
    },
  }, async (request) => {
    const { entry, tree, treeComplete } = await (await sessionOf(request)).showTrashed(request.params.id, TREE_LIMIT);
    return { ...trashBody(entry), tree: tree.map(treeItemBody), tree_complete: treeComplete };
  });

  app.post('/trash/:id/restore', {
    config: { operation: 'file' },
    schema: {
      summary: 'Restore a deletion where it was, missing folders made again; if its place is taken, beside it as `name (1)`..., and the answer says where',
      params: IdParams,
      response: { 200: RestoredBody, ...errorResponses },
    },
  }, async (request) => {
    const { entry, renamed } = await (await sessionOf(request)).restoreTrashed(request.params.id);
    return { path: entry.path, renamed, file: entryBody(entry) };
  });

  app.delete('/trash/:id', {
    config: { operation: 'file' },
    schema: {
      summary: 'Purge a deletion from the trash now, for good, with its files\' versions (delete permission on the path it had)',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    await (await sessionOf(request)).purgeTrashed(request.params.id);
    return reply.code(204).send(null);
  });
}
