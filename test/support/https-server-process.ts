import https from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { startServer, type ServerProcess } from './server-process.js';

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The certificate the server presented on this connection. */
  certificate: PeerCertificate;
}

/** One HTTPS request trusting only `ca`, on a fresh connection unless an agent is given. */
export function httpsRequest(url: string, options: { ca: Buffer; method?: string; headers?: Record<string, string>; body?: string; agent?: https.Agent }): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: options.method ?? 'GET', headers: options.headers, ca: options.ca, agent: options.agent ?? false }, (response) => {
      const certificate = (response.socket as TLSSocket).getPeerCertificate();
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, certificate }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * Starts the built server with ATRIUM_TLS_* set, on a port the kernel picks, and waits until it
 * says where it listens and /health answers there over HTTPS (trusting only `ca`).
 */
export function startHttpsServer(env: Record<string, string>, ca: Buffer): Promise<ServerProcess> {
  return startServer(env, {
    scheme: 'https',
    healthy: (port) => httpsRequest(`https://127.0.0.1:${port}/health`, { ca }).then((r) => r.status === 200, () => false),
  });
}
