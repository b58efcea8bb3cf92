import type { FastifyRequest } from 'fastify';

/**
 * Runs work during which no byte moves on the connection for a while although nothing is stalled:
 * ending an upload reads, checks and joins every part and flushes the file, about a minute for a
 * few GiB on a busy disk. The idle timeout (ATRIUM_IDLE_TIMEOUT, 60 s) is there for clients that
 * stall, not for a server at work: it closed the connection under the client, which then saw no
 * answer although the file was made. It is lifted meanwhile and set back before the answer.
 */
export async function withoutIdleTimeout<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const idleTimeoutMs = request.server.server.timeout;
  request.raw.setTimeout(0);
  try {
    return await work();
  } finally {
    request.raw.setTimeout(idleTimeoutMs);
  }
}
