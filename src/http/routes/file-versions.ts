import { Type } from 'typebox';
import type { VersionEntry } from '../../files/index.js';
import { isoTime } from '../../lib/time.js';
import type { ApiInstance } from '../fastify-types.js';
import { originOf } from '../origin.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams } from '../schemas.js';
import { entryBody } from './files/entry-body.js';
import { EntryBody } from './files/schemas.js';

const VersionBody = Type.Object({
  id: Type.Integer({ description: 'names it in POST /file_versions/<id>/restore' }),
  path: Type.String({ description: 'the file it is a version of, as the request Workspace shows it' }),
  size: Type.Integer(),
  sha256: Type.Union([Type.String(), Type.Null()]),
  md5: Type.Union([Type.String(), Type.Null()]),
  sha1: Type.Union([Type.String(), Type.Null()]),
  crc32: Type.Union([Type.String(), Type.Null()]),
  mtime: Type.String({ description: 'when this content was written' }),
  provided_mtime: Type.Union([Type.String(), Type.Null()], { description: 'the modification time its client gave, if any' }),
  created_by_id: Type.Union([Type.Integer(), Type.Null()], { description: 'who wrote this content' }),
  replaced_at: Type.String({ description: 'when it stopped being the file\'s content' }),
  replaced_by_id: Type.Union([Type.Integer(), Type.Null()], { description: 'who replaced it' }),
});

const ListVersionsQuery = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 4096, description: 'the file whose versions to list' }),
});

function versionBody(path: string, version: VersionEntry) {
  return {
    id: version.id, path, size: version.size, sha256: version.sha256, md5: version.md5, sha1: version.sha1, crc32: version.crc32,
    mtime: isoTime(version.mtime), provided_mtime: isoTime(version.providedMtime), created_by_id: version.authorId,
    replaced_at: isoTime(version.replacedAt), replaced_by_id: version.replacedById,
  };
}

/**
 * /file_versions (docs/files.md#trash-and-versions): the earlier contents a file kept when it was
 * overwritten, through any door, and restoring one. The site keeps `max_file_versions` per file,
 * all of them listed at once, newest first.
 */
export function fileVersionRoutes(app: ApiInstance, deps: RouteDeps): void {
  const sessionOf = (request: Parameters<typeof originOf>[0]) => deps.files.session(request.caller, request.requestWorkspaceId, originOf(request));

  app.get('/file_versions', {
    config: { operation: 'file' },
    schema: {
      summary: 'A file\'s earlier contents, newest first (read permission on the file)',
      querystring: ListVersionsQuery,
      response: { 200: Type.Array(VersionBody), ...errorResponses },
    },
  }, async (request) => {
    const { file, versions } = await (await sessionOf(request)).versions(request.query.path);
    return versions.map((version) => versionBody(file.path, version));
  });

  app.post('/file_versions/:id/restore', {
    config: { operation: 'file' },
    schema: {
      summary: 'Make a version its file\'s content again (write permission on the file); the content it had becomes its newest version',
      params: IdParams,
      response: { 200: EntryBody, ...errorResponses },
    },
  }, async (request) => entryBody(await (await sessionOf(request)).restoreVersion(request.params.id)));
}
