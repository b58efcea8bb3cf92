import { Type } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { deletePath } from '../../../files/index.js';
import { capabilitiesOn } from '../../../access/index.js';
import { prepareDownload } from '../../../files/index.js';
import { beginUpload, endUpload, offerPart } from '../../../files/index.js';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { entryBody } from './entry-body.js';
import { actorAndPath, fileCoreOf } from './file-routes-core.js';
import { sendFileBytes } from './file-bytes.js';
import { DeleteBody, DeleteQuery, EntryBody, FileGetQuery, FileUploadPartBody, flagValue, missingBodyAsEmpty, UploadActionBody, PathParams } from './schemas.js';
import { downloadUri } from './transfer-urls.js';
import { uploadPartBody } from './upload-part-body.js';

/**
 * /files/<path>: download (a signed link, a redirect to it, or the bytes), delete, and the upload
 * protocol of the Files.com SDKs (docs/files.md). PUT with a raw body is in uploads.ts.
 */
export function fileRoutes(app: ApiInstance, deps: RouteDeps): void {
  const ctx = fileCoreOf(deps);
  for (const url of ['/files', '/files/*']) {
    app.get(url, {
      config: { allowFilesOnlyKeys: true },
      schema: {
        params: PathParams,
        summary: 'A file with a signed, short-lived download_uri (action=redirect: 302 to it; action=stream: the bytes)',
        querystring: FileGetQuery,
        response: { 200: EntryBody, 302: Type.Null(), ...errorResponses },
      },
    }, async (request, reply) => {
      const { actor, site } = await actorAndPath(request, deps, 'files');
      const { entry, capabilities, link } = await prepareDownload(ctx, actor, site);
      const uri = downloadUri(request, link.token);
      if (request.query.action === 'redirect') return reply.code(302).header('Location', uri).send(null);
      if (request.query.action === 'stream') return sendFileBytes(reply, ctx, entry, request.headers.range);
      return { ...entryBody(actor, entry, capabilities), download_uri: uri };
    });

    // The SDK repeats the path (and sometimes `recursive`) in a JSON body; the query wins.
    app.delete(url, {
      config: { allowFilesOnlyKeys: true },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Delete a file, or a folder (recursive=true when it is not empty)',
        querystring: DeleteQuery,
        body: DeleteBody,
        response: { 204: Type.Null(), ...errorResponses },
      },
    }, async (request, reply) => {
      const { actor, site } = await actorAndPath(request, deps, 'files');
      await deletePath(ctx, actor, site, flagValue(request.query.recursive ?? request.body.recursive, false));
      return reply.code(204).send(null);
    });

    app.post(url, {
      config: { allowFilesOnlyKeys: true },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Upload protocol: action=put begins an upload (or, with ref and part, offers that part); action=end finishes it',
        body: UploadActionBody,
        response: { 200: FileUploadPartBody, 201: EntryBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { actor, site } = await actorAndPath(request, deps, 'files');
      const body = request.body;
      if (body.action === 'end') {
        if (body.ref === undefined) throw errors.paramsRequired({ ref: ['is required to end an upload'] });
        const entry = await endUpload(ctx, actor, site, body.ref);
        return reply.code(201).send(entryBody(actor, entry, await capabilitiesOn(deps.db, actor, entry.pathKey, 'file')));
      }
      // Uploads create missing parent folders unless told not to (docs/files.md).
      const offer = body.ref === undefined
        ? await beginUpload(ctx, actor, site, flagValue(body.mkdir_parents, true))
        : await offerPart(ctx, actor, site, body.ref, body.part ?? 1);
      return reply.code(200).send(await uploadPartBody(request, ctx, actor, offer));
    });
  }
}
