import type { Http2SecureServer, ServerHttp2Session } from 'node:http2';
import type { ApiInstance } from '../fastify-types.js';

/**
 * On shutdown, asks every open HTTP/2 session to finish: it gets GOAWAY, its requests in flight
 * complete, and it closes. Without this, Node.js 20 and 22 keep the server open for as long as a
 * client keeps an idle session, and shutdown would end by force.
 */
export function closeHttp2SessionsOnClose(app: ApiInstance): void {
  const sessions = new Set<ServerHttp2Session>();
  const server = app.server as unknown as Http2SecureServer;
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  app.addHook('preClose', async () => {
    for (const session of sessions) session.close();
  });
}
