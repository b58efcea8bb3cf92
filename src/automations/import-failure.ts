/**
 * Why an import failed, in words for a run's log: its message names the host, the status or the
 * limit, and never a header's value, the URL's query or its user name and password, which may
 * carry secrets.
 */
export class ImportFailure extends Error {
  override name = 'ImportFailure';

  /**
   * `permanent`: another try cannot change it (an address the rule refuses, a URL that cannot be
   * used, a file too large, a 4xx answer), so the run's step fails at once instead of being tried
   * again (step-retries.ts). A network failure, a timeout or a 5xx answer may pass.
   */
  constructor(message: string, readonly permanent = false) {
    super(message);
  }
}

/** The URL as a run's log may show it: scheme, host and path, without credentials or query. */
export function urlForLog(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** What went wrong below HTTP (DNS, TCP, TLS), in words, by Node's error code. */
const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved now',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed unexpectedly',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed while the request was sent',
  HPE_INVALID_CONSTANT: 'the server\'s answer is not valid HTTP',
  HPE_HEADER_OVERFLOW: 'the server\'s headers are too large',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server\'s TLS certificate is not for this host',
  CERT_HAS_EXPIRED: 'the server\'s TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server\'s TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server\'s TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server\'s TLS certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the server\'s TLS certificate is not trusted',
};

/**
 * Any failure of a hop as an ImportFailure naming the URL. Node's own messages are not passed on:
 * some quote what was sent (a header's value among them).
 */
export function importFailureOf(error: unknown, url: URL): ImportFailure {
  if (error instanceof ImportFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? NETWORK_FAILURES[code] ?? `the request failed (${code})` : 'the request failed';
  return new ImportFailure(`${urlForLog(url)}: ${reason}`);
}
