import { rcloneRoundTrip } from './rclone-round-trip.js';

/**
 * rclone's `webdav` backend against Atrium serving HTTPS itself: the same round trip as
 * webdav-rclone.test.ts, over TLS and HTTP/2 (what rclone negotiates by ALPN).
 * WebDAV's methods (PROPFIND, MKCOL, PUT with a body, MOVE) then go through Fastify's HTTP/2
 * compatibility layer instead of HTTP/1.1's.
 */
rcloneRoundTrip({
  name: 'WebDAV over HTTPS',
  serverEnv: {},
  remote: (server) => ['type = webdav', `url = ${server.baseUrl}/dav/`, 'vendor = other'],
  https: true,
  keepsTimes: false,
});
