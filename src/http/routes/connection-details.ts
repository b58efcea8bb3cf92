import { Type } from 'typebox';
import { connectionDetails } from '../../connect/index.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';
import { publicBaseUrl } from './files/transfer-urls.js';

const DetailsBody = Type.Object({
  webdav_url: Type.String({ description: 'The WebDAV URL: ATRIUM_PUBLIC_URL, or the address this request reached, with /dav/ (docs/webdav.md)' }),
  sftp_enabled: Type.Boolean({ description: 'SFTP is listening (ATRIUM_SFTP_PORT)' }),
  sftp_host: Type.Optional(Type.String({ description: 'When SFTP is on: the host name to connect to, the public URL\'s or the request\'s' })),
  sftp_port: Type.Optional(Type.Integer({ description: 'When SFTP is on: the port it listens on' })),
  sftp_host_key_fingerprints: Type.Optional(Type.Array(Type.String(), {
    description: 'When SFTP is on: each host key as `<type> SHA256:<base64>`, what clients show on first connection (docs/sftp.md)',
  })),
});

/**
 * GET /connection_details (an Atrium extension): what any signed-in user needs to connect another
 * tool (a WebDAV mount, an SFTP client, rclone), shown by the console's Connect panel. It serves
 * file work without being it, so a `files_only` key may read it too.
 */
export function connectionDetailRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/connection_details', {
    config: { operation: 'file-context' },
    schema: { summary: 'Show how to connect WebDAV and SFTP clients (Atrium extension)', querystring: Type.Object({}), response: { 200: DetailsBody, ...errorResponses } },
  }, async (request) => {
    const details = connectionDetails(publicBaseUrl(request), deps.sftpListener);
    if (details.sftp === undefined) return { webdav_url: details.webdavUrl, sftp_enabled: false };
    return {
      webdav_url: details.webdavUrl,
      sftp_enabled: true,
      sftp_host: details.sftp.host,
      sftp_port: details.sftp.port,
      sftp_host_key_fingerprints: [...details.sftp.hostKeyFingerprints],
    };
  });
}
