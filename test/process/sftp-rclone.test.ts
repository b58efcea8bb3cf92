import { rcloneRoundTrip } from './rclone-round-trip.js';

/** rclone's `sftp` backend against a running Atrium (the round trip is in rclone-round-trip.ts). */
rcloneRoundTrip({
  name: 'SFTP',
  serverEnv: { ATRIUM_SFTP_PORT: '0' },
  remote: (server) => [
    'type = sftp',
    'host = 127.0.0.1',
    `port = ${Number(/SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())?.[1])}`,
    // No shell: rclone must not try remote commands (Atrium refuses them) for hashes or disk use.
    'shell_type = none',
    'md5sum_command = none',
    'sha1sum_command = none',
    'disable_hashcheck = true',
  ],
  keepsTimes: true,
});
