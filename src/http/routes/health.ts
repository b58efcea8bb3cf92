import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import type { ApiInstance } from '../fastify-types.js';

const HealthBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.Union([Type.Literal('reachable'), Type.Literal('unreachable')]),
  dialect: Type.String(),
});

/** GET /health, outside the API root: 200 while the database answers, 503 while it does not. */
export function healthRoutes(app: ApiInstance, database: Database): void {
  app.get('/health', {
    config: { public: true },
    schema: { hide: true, response: { 200: HealthBody, 503: HealthBody } },
  }, async (_request, reply) => {
    const reachable = await database.ping();
    return reply.code(reachable ? 200 : 503).send({
      status: reachable ? 'ok' : 'unavailable',
      database: reachable ? 'reachable' : 'unreachable',
      dialect: database.dialect,
    });
  });
}
