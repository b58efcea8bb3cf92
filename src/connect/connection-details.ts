/**
 * How a person connects another tool to this server (the console's Connect panel,
 * docs/console.md#connect-other-tools): the WebDAV URL and the SFTP listener's host, port and host
 * keys. Facts of the running server, the same for everyone, with nothing secret in them: the
 * fingerprints are what every SFTP client is shown on its first connection anyway.
 */
export interface ConnectionDetails {
  webdavUrl: string;
  /** Undefined when SFTP is off (no ATRIUM_SFTP_PORT). */
  sftp: { host: string; port: number; hostKeyFingerprints: readonly string[] } | undefined;
}

/** What the SFTP front door reports once it listens: its port (a configured 0 is only known then) and host keys. */
export interface SftpListenerFacts {
  port(): number | undefined;
  fingerprints: readonly string[];
}

/**
 * The details for a client that reached this server at `baseUrl` (ATRIUM_PUBLIC_URL, or the
 * request's own scheme and host): WebDAV is below it at `/dav/`, and SFTP listens on the same
 * host name, since it shares the API's address (docs/sftp.md).
 */
export function connectionDetails(baseUrl: string, sftp: SftpListenerFacts | undefined): ConnectionDetails {
  const base = new URL(baseUrl);
  const webdavUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}/dav/`;
  const port = sftp?.port();
  return {
    webdavUrl,
    sftp: sftp === undefined || port === undefined ? undefined : { host: base.hostname, port, hostKeyFingerprints: sftp.fingerprints },
  };
}
