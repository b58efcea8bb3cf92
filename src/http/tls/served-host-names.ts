import { X509Certificate } from 'node:crypto';
import net from 'node:net';

/** Addresses that mean "every interface": a listener bound there has no address a client could name. */
const UNSPECIFIED = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/**
 * The host names and addresses this server may send a client to: those in the subjectAltName of
 * the certificate it serves (wildcards as TLS clients match them), and the address it listens
 * on. A redirect to any other name would either fail the client's certificate check or take it
 * to a server the request's author chose. Follows the certificate when it is reloaded.
 */
export class ServedHostNames {
  #certificate: X509Certificate;
  readonly #listenHost: string;

  constructor(certificate: Buffer, listenHost: string) {
    this.#certificate = new X509Certificate(certificate);
    this.#listenHost = unbracketed(listenHost).toLowerCase();
  }

  certificateChanged(certificate: Buffer): void {
    this.#certificate = new X509Certificate(certificate);
  }

  /** `host` as it appears in a Host header, without its port: a name, an IPv4 address or a bracketed IPv6 one. */
  includes(host: string): boolean {
    const name = unbracketed(host);
    if (name.toLowerCase() === this.#listenHost && !UNSPECIFIED.has(this.#listenHost)) return true;
    // subject 'never': only the subjectAltName counts, as for every current TLS client.
    return net.isIP(name) === 0 ? this.#certificate.checkHost(name, { subject: 'never' }) !== undefined : this.#certificate.checkIP(name) !== undefined;
  }
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
