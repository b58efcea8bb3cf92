import { Type } from 'typebox';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { sendStream } from './file-bytes.js';
import { rangeRequestOf } from './range-header.js';
import { DownloadQuery, TokenParams } from './schemas.js';
import { DOWNLOADS_PATH } from './transfer-urls.js';

/**
 * The signed download URL a `download_uri` points at. It carries its own authority, so it is public
 * (no credential: the SDKs fetch it without one); the token reaches one version of one file.
 */
export function downloadRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get(`${DOWNLOADS_PATH}/:token`, {
    config: { public: true },
    schema: {
      summary: 'The bytes of a file, through a signed, short-lived link (Range requests supported); disposition=inline to show a previewable type',
      params: TokenParams,
      querystring: DownloadQuery,
      response: { 200: Type.String({ format: 'binary' }), 206: Type.String({ format: 'binary' }), ...errorResponses },
    },
  }, async (request, reply) => {
    // Recorded in History as a download by the link's holder, from this client's address.
    const opened = await deps.files.openDownload(request.params.token, rangeRequestOf(request.headers.range), { ip: request.ip, headersOnly: request.method === 'HEAD', asked: request.query.disposition ?? 'attachment' });
    return sendStream(reply, opened, opened.stream, opened.range);
  });
}
