import { Type } from 'typebox';
import { sitePathFor } from '../../../files/index.js';
import { copyEntry, moveEntry } from '../../../files/index.js';
import { visibleEntry } from '../../../files/index.js';
import { downloadLinkFor } from '../../../files/index.js';
import { beginUpload } from '../../../files/index.js';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { entryBody } from './entry-body.js';
import { actorAndPath, fileCoreOf } from './file-routes-core.js';
import { EntryBody, FileActionBody, FileActionRequestBody, FileUploadPartBody, flagValue, missingBodyAsEmpty, UploadActionBody, MetadataQuery, PathParams } from './schemas.js';
import { downloadUri } from './transfer-urls.js';
import { uploadPartBody } from './upload-part-body.js';

/** /file_actions/...: metadata (File.find), move, copy and begin_upload, as the Files.com SDKs call them. */
export function fileActionRoutes(app: ApiInstance, deps: RouteDeps): void {
  const ctx = fileCoreOf(deps);

  for (const url of ['/file_actions/metadata', '/file_actions/metadata/*']) {
    app.get(url, {
      config: { allowFilesOnlyKeys: true },
      schema: {
        params: PathParams,
        querystring: MetadataQuery,
        summary: 'A file or folder\'s metadata (with a download_uri for a file the caller may read)',
        response: { 200: EntryBody, ...errorResponses },
      },
    }, async (request) => {
      const { actor, site } = await actorAndPath(request, deps, 'file_actions/metadata');
      const { entry, access } = await visibleEntry(deps.db, actor, site);
      const capabilities = access.capabilities(entry.pathKey, entry.type);
      const body = entryBody(actor, entry, capabilities);
      if (entry.type !== 'file' || !capabilities.has('read')) return body;
      return { ...body, download_uri: downloadUri(request, (await downloadLinkFor(ctx, entry)).token) };
    });
  }

  for (const [action, run] of [['move', moveEntry], ['copy', copyEntry]] as const) {
    app.post(`/file_actions/${action}/*`, {
      config: { allowFilesOnlyKeys: true },
      schema: {
        params: PathParams,
        summary: action === 'move'
          ? 'Move or rename a file or folder (delete on the source, write at the destination)'
          : 'Copy a file or folder (read on the source, write at the destination)',
        body: FileActionRequestBody,
        response: { 201: FileActionBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { actor, site } = await actorAndPath(request, deps, `file_actions/${action}`);
      await run(ctx, actor, site, sitePathFor(actor, request.body.destination));
      return reply.code(201).send({ status: 'completed', file_migration_id: null });
    });
  }

  // File.beginUpload: the same as POST /files/<path> with action=put, answered as a list of parts.
  app.post('/file_actions/begin_upload/*', {
    config: { allowFilesOnlyKeys: true },
    preValidation: missingBodyAsEmpty,
    schema: {
      params: PathParams,
      summary: 'Begin an upload; answers the first part to send',
      body: UploadActionBody,
      response: { 200: Type.Array(FileUploadPartBody), ...errorResponses },
    },
  }, async (request) => {
    const { actor, site } = await actorAndPath(request, deps, 'file_actions/begin_upload');
    const offer = await beginUpload(ctx, actor, site, flagValue(request.body.mkdir_parents, true));
    return [await uploadPartBody(request, ctx, actor, offer)];
  });
}
