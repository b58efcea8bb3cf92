/**
 * Which front door a request came through and from which address: what History records as the
 * `interface` and `ip` of an action. The values are Files.com's (`restapi`, `web`, `scim`, `dav`,
 * `sftp`), plus `cli` for the administration command, which Files.com does not have
 * (docs/history.md).
 */
export type Interface = 'restapi' | 'web' | 'scim' | 'dav' | 'sftp' | 'cli';

export interface Origin {
  readonly interface: Interface;
  /** The client's address (Fastify's request.ip, which honours ATRIUM_TRUST_PROXY); null for the command line. */
  readonly ip: string | null;
}
