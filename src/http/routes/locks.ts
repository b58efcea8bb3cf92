import { Type } from 'typebox';
import { errors } from '../../errors/catalogue.js';
import type { LockEntry } from '../../files/index.js';
import type { ApiInstance } from '../fastify-types.js';
import { paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';
import { sessionAndPath } from './files/file-session.js';
import { Flag, flagValue, missingBodyAsEmpty, PathParams } from './files/schemas.js';

/** Files.com's Lock, for a lock taken through either door (REST or WebDAV: one store). */
const LockBody = Type.Object({
  path: Type.String({ description: 'where the lock is rooted, as the request Workspace shows it' }),
  timeout: Type.Integer({ description: 'seconds the lock was granted for when taken or last refreshed' }),
  depth: Type.Union([Type.Literal('0'), Type.Literal('infinity')]),
  recursive: Type.Boolean({ description: 'depth infinity: it covers everything below a folder' }),
  owner: Type.Union([Type.String(), Type.Null()], { description: 'a WebDAV client\'s owner element as sent; otherwise the username of who took it' }),
  scope: Type.Union([Type.Literal('exclusive'), Type.Literal('shared')]),
  exclusive: Type.Boolean(),
  token: Type.String({ description: 'what DELETE /locks takes, and what a WebDAV client submits in its If header' }),
  type: Type.Literal('write'),
  allow_access_by_any_user: Type.Boolean({ description: 'any user may write under it and remove it, as its taker may' }),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'who took it; null for a site-wide key' }),
  username: Type.Union([Type.String(), Type.Null()]),
});

function lockBody(lock: LockEntry) {
  return {
    path: lock.path,
    timeout: lock.timeoutSeconds,
    depth: lock.depth,
    recursive: lock.depth === 'infinity',
    owner: lock.owner,
    scope: lock.scope,
    exclusive: lock.scope === 'exclusive',
    token: lock.token,
    type: 'write' as const,
    allow_access_by_any_user: lock.allowAccessByAnyUser,
    user_id: lock.userId,
    username: lock.username,
  };
}

/** The order locks are listed in, as one comparable string: when taken, then the token. */
const listingKey = (lock: LockEntry) => `${String(lock.createdAt).padStart(16, '0')}:${lock.token}`;

const CreateLockBody = Type.Object({
  path: Type.Optional(Type.String({ description: 'repeated by the SDKs; the URL\'s path is the one used' })),
  allow_access_by_any_user: Type.Optional(Flag),
  exclusive: Type.Optional(Flag),
  recursive: Type.Optional(Flag),
  timeout: Type.Optional(Type.Integer({ minimum: 1, description: 'seconds; at most 3600 are granted (the default)' })),
});
const ListLocksQuery = Type.Object({
  ...paginationQuery,
  path: Type.Optional(Type.String()),
  include_children: Type.Optional(Flag),
});
const DeleteLockQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 256 })) });
const DeleteLockBody = Type.Object({ token: Type.Optional(Type.String({ maxLength: 256 })), path: Type.Optional(Type.String()) });

/**
 * /locks/<path> (Files.com's Lock; docs/files.md, Locks): take, list and remove write locks, kept
 * in the same store as WebDAV's, so that a lock taken through either door stops the writes of
 * everyone but its holder through every door. The file session decides who may.
 */
export function lockRoutes(app: ApiInstance, deps: RouteDeps): void {
  for (const url of ['/locks', '/locks/*']) {
    app.post(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Lock a file or folder (write on it): exclusive (default true), recursive (default true: everything below a folder too), '
          + 'timeout in seconds (default and most 3600), allow_access_by_any_user (default false)',
        body: CreateLockBody,
        response: { 201: LockBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'locks');
      const body = request.body;
      const lock = await session.locks.create(requiredPath(path), {
        exclusive: flagValue(body.exclusive, true),
        recursive: flagValue(body.recursive, true),
        timeoutSeconds: body.timeout,
        allowAccessByAnyUser: flagValue(body.allow_access_by_any_user, false),
      });
      return reply.code(201).send(lockBody(lock));
    });

    app.get(url, {
      config: { operation: 'file' },
      schema: {
        params: PathParams,
        summary: 'The locks covering a path the caller can see (taken there, or above it on everything below), '
          + 'and with include_children those taken below it, oldest first',
        querystring: ListLocksQuery,
        response: { 200: Type.Array(LockBody), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'locks');
      const page = readPage<string>('locks', request.query, 'string');
      const locks = await session.locks.list(path, { includeChildren: flagValue(request.query.include_children, false) });
      const after = page.after;
      const rows = (after === undefined ? locks : locks.filter((lock) => listingKey(lock) > after)).slice(0, page.limit + 1);
      return sendPage(reply, deps.headers, 'locks', rows, page.limit, listingKey).map(lockBody);
    });

    // The SDK sends `token` in a JSON body; curl users put it in the query. The query wins.
    app.delete(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Remove a lock covering the path, named by its token: its taker, an administrator, or anyone for a lock allowing access by any user',
        querystring: DeleteLockQuery,
        body: DeleteLockBody,
        response: { 204: Type.Null(), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'locks');
      const token = request.query.token ?? request.body.token;
      if (token === undefined || token === '') throw errors.paramsRequired({ token: ['is required: the token of the lock to remove'] });
      if (!(await session.locks.remove(requiredPath(path), token))) throw errors.notFound('No lock with this token covers this path.');
      return reply.code(204).send(null);
    });
  }
}

/** Locks are taken and removed on a named path: the SDK refuses an empty one, and so does the API. */
function requiredPath(path: string): string {
  if (path.replace(/^\/+|\/+$/g, '') === '') throw errors.paramsRequired({ path: ['is required: the file or folder to lock'] });
  return path;
}
