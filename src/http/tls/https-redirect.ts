import http from 'node:http';

const HOST_NAME = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

export interface RedirectTarget {
  /** The HTTPS listener's port, used with the host the client asked for. */
  httpsPort: number;
  /** ATRIUM_PUBLIC_URL when it is https: the redirect goes there instead. */
  publicUrl: string | undefined;
  /** Whether a host the client asked for (a name or address, without its port) is one of this server's own. */
  isServedHost(host: string): boolean;
}

/**
 * A plain HTTP listener that serves nothing but the way to HTTPS: 301 for GET and HEAD, 308
 * otherwise so a client repeats its method and body. It sends a client only to ATRIUM_PUBLIC_URL
 * or to a host of this server's own: copying any Host header into Location would make this port
 * an open redirect to wherever a link's author wanted.
 */
export function createHttpsRedirectServer(target: RedirectTarget): http.Server {
  return http.createServer((request, response) => {
    const base = httpsBase(request.headers.host, target);
    if (base === undefined) {
      const message = 'This server answers only to the names in its TLS certificate: ask for one of them.\n';
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(message), connection: 'close' });
      response.end(message);
      return;
    }
    const permanent = request.method === 'GET' || request.method === 'HEAD' ? 301 : 308;
    response.writeHead(permanent, { location: `${base}${request.url ?? '/'}`, 'content-length': '0', connection: 'close' });
    response.end();
  });
}

/** Where the path goes: the public URL, the client's own host if it is one of the server's, or nowhere. */
function httpsBase(hostHeader: string | undefined, target: RedirectTarget): string | undefined {
  if (target.publicUrl?.startsWith('https://') === true) return target.publicUrl;
  const hostName = HOST_NAME.exec(hostHeader ?? '')?.[1];
  if (hostName === undefined || !target.isServedHost(hostName)) return undefined;
  return target.httpsPort === 443 ? `https://${hostName}` : `https://${hostName}:${target.httpsPort}`;
}
