import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionSettings {
  /** 0: no limit. */
  maxConnections: number;
  /** 0: no limit. */
  maxConnectionsPerClient: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * Connection hygiene for a listening server (HTTP or HTTPS):
 * - the idle timeout is the socket's inactivity timeout, reset by every byte in either direction,
 *   so stalled headers or bodies are closed while a slow but moving upload goes on;
 * - the keep-alive timeout bounds how long an idle connection waits for its next request;
 * - the connection caps keep one client, or everyone, from holding every socket.
 */
export function applyConnectionSettings(server: Server, settings: ConnectionSettings): void {
  // Under HTTPS the server is node:http2's, serving HTTP/1.1 beside HTTP/2; the properties below
  // are the ones its HTTP/1.1 connections read, and setTimeout reaches its HTTP/2 sessions' sockets.
  server.setTimeout(settings.idleTimeoutMs);
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  // No cap on a whole request: a slow but moving 5 GiB upload must finish (the idle timeout closes
  // a stalled one). The HTTP/2 server would otherwise cut HTTP/1.1 requests at 5 minutes.
  server.requestTimeout = 0;
  // Node's own headersTimeout counts from the first byte and is checked against the keep-alive
  // timeout; kept above it so only the idle timeout decides about slow headers.
  server.headersTimeout = Math.max(server.headersTimeout, settings.keepAliveTimeoutMs + 1000);
  if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections;
  if (settings.maxConnectionsPerClient > 0) limitPerClient(server, settings.maxConnectionsPerClient);
}

/** Counts open sockets per remote address and closes a new one over the limit at once. */
function limitPerClient(server: Server, limit: number): void {
  const open = new Map<string, number>();
  // Secure servers hand over the TLS socket on 'secureConnection' too, but the TCP 'connection'
  // event comes first for both, before any byte is read.
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limit) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
