import { Type } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { entryBody } from './entry-body.js';
import { sendStream } from './file-bytes.js';
import { sessionAndPath } from './file-session.js';
import { withoutIdleTimeout } from './server-at-work.js';
import { rangeRequestOf } from './range-header.js';
import { providedMtimeOf } from './provided-mtime.js';
import { partEntityTagsOf } from './upload-etags.js';
import { countValue, DeleteBody, DeleteQuery, EntryBody, FileGetQuery, FileUpdateBody, FileUploadPartBody, flagValue, missingBodyAsEmpty, UploadActionBody, PathParams } from './schemas.js';
import { downloadUri } from './transfer-urls.js';
import { uploadPartBody } from './upload-part-body.js';
import { offeredParts } from './upload-request.js';

/**
 * /files/<path>: download (a signed link, a redirect to it, or the bytes), delete, and the upload
 * protocol of the Files.com SDKs (docs/files.md). PUT with a raw body is in uploads.ts.
 */
export function fileRoutes(app: ApiInstance, deps: RouteDeps): void {
  for (const url of ['/files', '/files/*']) {
    app.get(url, {
      config: { operation: 'file' },
      schema: {
        params: PathParams,
        summary: 'A file with a signed, short-lived download_uri (action=redirect: 302 to it; action=stream: the bytes)',
        querystring: FileGetQuery,
        response: { 200: EntryBody, 302: Type.Null(), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'files');
      if (request.query.action === 'stream') {
        const { entry, stream, range } = await session.read(path, rangeRequestOf(request.headers.range), { headersOnly: request.method === 'HEAD' });
        return sendStream(reply, entry, stream, range);
      }
      const { entry, link } = await session.downloadLink(path);
      const uri = downloadUri(request, link.token);
      if (request.query.action === 'redirect') return reply.code(302).header('Location', uri).send(null);
      return { ...entryBody(entry), download_uri: uri };
    });

    // File.update: the client's modification time is kept; what Atrium does not keep is refused by name.
    app.patch(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Update a file or folder: provided_mtime (write on it) is kept as the client\'s modification time; '
          + 'priority_color and custom_metadata are refused unless empty (Atrium keeps neither)',
        body: FileUpdateBody,
        response: { 200: EntryBody, ...errorResponses },
      },
    }, async (request) => {
      const { session, path } = await sessionAndPath(request, deps, 'files');
      const body = request.body;
      if (body.priority_color !== undefined && body.priority_color !== null && body.priority_color !== '') {
        throw errors.paramsInvalid({ priority_color: ['is not offered: Atrium keeps no priority colors'] });
      }
      if (!isEmptyMetadata(body.custom_metadata)) {
        throw errors.paramsInvalid({ custom_metadata: ['is not offered: Atrium keeps no custom metadata'] });
      }
      const providedMtime = providedMtimeOf(body.provided_mtime);
      return entryBody(providedMtime === undefined ? await session.stat(path) : await session.setProvidedModifiedTime(path, providedMtime));
    });

    // The SDK repeats the path (and sometimes `recursive`) in a JSON body; the query wins.
    app.delete(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Delete a file, or a folder (recursive=true when it is not empty)',
        querystring: DeleteQuery,
        body: DeleteBody,
        response: { 204: Type.Null(), ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'files');
      await session.delete(path, { recursive: flagValue(request.query.recursive ?? request.body.recursive, false) });
      return reply.code(204).send(null);
    });

    app.post(url, {
      config: { operation: 'file' },
      preValidation: missingBodyAsEmpty,
      schema: {
        params: PathParams,
        summary: 'Upload protocol: action=put begins an upload (or, with ref and part, offers parts of it; with parts, a list); action=end finishes it',
        body: UploadActionBody,
        response: { 200: Type.Union([FileUploadPartBody, Type.Array(FileUploadPartBody)]), 201: EntryBody, ...errorResponses },
      },
    }, async (request, reply) => {
      const { session, path } = await sessionAndPath(request, deps, 'files');
      const body = request.body;
      if (body.action === 'end') {
        if (body.ref === undefined) throw errors.paramsRequired({ ref: ['is required to end an upload'] });
        const ref = body.ref;
        const declared = { providedMtime: providedMtimeOf(body.provided_mtime), size: countValue(body.size, 'size'), etags: partEntityTagsOf(body) };
        return reply.code(201).send(entryBody(await withoutIdleTimeout(request, () => session.endUpload(path, ref, declared))));
      }
      // Without `parts`, the one part as the SDKs' File.uploadFile reads it; with it, a list like begin_upload's.
      const parts = (await offeredParts(session, path, body)).map((offer) => uploadPartBody(request, offer));
      return reply.code(200).send(body.parts === undefined ? parts[0]! : parts);
    });
  }
}

/** Custom metadata that asks for nothing to be kept: absent, null, or an empty object. */
function isEmptyMetadata(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
