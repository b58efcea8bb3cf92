import http from 'node:http';

const HOST_NAME = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

export interface RedirectTarget {
  /** The HTTPS listener's port, used with the host the client asked for. */
  httpsPort: number;
  /** ATRIUM_PUBLIC_URL when it is https: the redirect goes there instead. */
  publicUrl: string | undefined;
  /** Where to send a client whose Host header is missing or not a plain host name. */
  fallbackHost: string;
}

/**
 * A plain HTTP listener that serves nothing but the way to HTTPS: 301 for GET and HEAD, 308
 * otherwise so a client repeats its method and body.
 */
export function createHttpsRedirectServer(target: RedirectTarget): http.Server {
  return http.createServer((request, response) => {
    const location = `${httpsBase(request.headers.host, target)}${request.url ?? '/'}`;
    const permanent = request.method === 'GET' || request.method === 'HEAD' ? 301 : 308;
    response.writeHead(permanent, { location, 'content-length': '0', connection: 'close' });
    response.end();
  });
}

function httpsBase(hostHeader: string | undefined, target: RedirectTarget): string {
  if (target.publicUrl?.startsWith('https://') === true) return target.publicUrl;
  const hostName = HOST_NAME.exec(hostHeader ?? '')?.[1] ?? target.fallbackHost;
  return target.httpsPort === 443 ? `https://${hostName}` : `https://${hostName}:${target.httpsPort}`;
}
