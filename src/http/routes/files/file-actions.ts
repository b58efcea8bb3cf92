import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { entryBody } from './entry-body.js';
import { sessionAndPath } from './file-session.js';
import { zipOfSelection } from '../../../files/index.js';
import { originOf } from '../../origin.js';
import { contentDisposition } from './file-bytes.js';
import { BeginUploadBody, EntryBody, FileActionBody, FileActionRequestBody, FileUploadPartBody, missingBodyAsEmpty, MetadataQuery, PathParams, ZipRequestBody } from './schemas.js';
import { downloadUri } from './transfer-urls.js';
import { uploadPartBody } from './upload-part-body.js';
import { offeredParts } from './upload-request.js';

/**
 * /file_actions/...: metadata (File.find), move, copy and begin_upload, as the Files.com SDKs call
 * them; and zip, Atrium's own, for several files and folders as one download.
 */
export function fileActionRoutes(app: ApiInstance, deps: RouteDeps): void {
  for (const url of ['/file_actions/metadata', '/file_actions/metadata/*']) {
    app.get(url, {
      config: { operation: 'file' },
      schema: {
        params: PathParams,
        querystring: MetadataQuery,
        summary: 'A file or folder\'s metadata (with a download_uri for a file the caller may read)',
        response: { 200: EntryBody, ...errorResponses },
      },
    }, async (request) => {
      const { session, path } = await sessionAndPath(request, deps, 'file_actions/metadata');
      const { entry, downloadLink } = await session.statWithDownloadLink(path);
      const body = entryBody(entry);
      return downloadLink === undefined ? body : { ...body, download_uri: downloadUri(request, downloadLink.token) };
    });
  }

  for (const action of ['move', 'copy'] as const) {
    app.post(`/file_actions/${action}/*`, {
      config: { operation: 'file' },
      schema: {
        params: PathParams,
        summary: action === 'move'
          ? 'Move or rename a file or folder (delete on the source, write at the destination)'
          : 'Copy a file or folder (read on the source, write at the destination)',
        body: FileActionRequestBody,
        response: { 201: FileActionBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, `file_actions/${action}`);
      const destination = request.body.destination;
      await (action === 'move' ? session.move(path, destination) : session.copy(path, destination));
      return reply.code(201).send({ status: 'completed', file_migration_id: null });
    });
  }

  // File.beginUpload: the same as POST /files/<path> with action=put, always answered as a list of parts.
  app.post('/file_actions/begin_upload/*', {
    config: { operation: 'file' },
    preValidation: missingBodyAsEmpty,
    schema: {
      params: PathParams,
      summary: 'Begin an upload, answering its first `parts` parts; with `ref` (and `part`), parts of that upload',
      body: BeginUploadBody,
      response: { 200: Type.Array(FileUploadPartBody), ...errorResponses },
    },
  }, async (request) => {
    const { session, path } = await sessionAndPath(request, deps, 'file_actions/begin_upload');
    const offers = await offeredParts(session, path, request.body);
    return offers.map((offer) => uploadPartBody(request, offer));
  });

  // Atrium's own (Files.com has no such call): several files and folders as one ZIP, streamed
  // through the caller's session, so it holds only what they may read (docs/files.md).
  app.post('/file_actions/zip', {
    config: { operation: 'file' },
    schema: {
      summary: 'Several files and folders as one ZIP (Atrium\'s own): streamed, stored not compressed, ZIP64 when needed; each file\'s download recorded',
      body: ZipRequestBody,
      response: { 200: Type.String({ format: 'binary' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const session = await deps.files.session(request.caller, request.requestWorkspaceId, originOf(request));
    const zip = await zipOfSelection(session, request.body.paths);
    return (reply as FastifyReply)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', contentDisposition(`${zip.name}.zip`))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(zip.stream);
  });
}
