import { rcloneRoundTrip } from './rclone-round-trip.js';

/**
 * rclone's `webdav` backend against a running Atrium (the round trip is in rclone-round-trip.ts),
 * as the ownCloud vendor: rclone then sends each file's time with its PUT (`X-OC-Mtime`) and
 * compares times, so the round trip shows Atrium keeps them (the HTTPS one keeps `vendor = other`).
 * About 30 files a second: rclone's WebDAV backend spaces its calls (MKCOL, PUT and PROPFIND for
 * each file) at least 10 ms apart through its pacer, however many transfers run; Atrium itself
 * answers a small PUT in a few ms through either door.
 */
rcloneRoundTrip({
  name: 'WebDAV',
  serverEnv: {},
  remote: (server) => ['type = webdav', `url = ${server.baseUrl}/dav/`, 'vendor = owncloud'],
  keepsTimes: true,
});
