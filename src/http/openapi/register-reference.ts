import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_ROOT } from '../api-paths.js';
import { setPageSecurityHeaders } from '../security-headers.js';

export const REFERENCE_PATH = `${API_ROOT}/docs`;

/**
 * The readable API reference at /api/rest/v1/docs: Swagger UI over the server's own OpenAPI
 * document, every script, style and image served from here (the package ships them), under the
 * same page policy as the web console. It needs no credential: it shows only what the document does.
 */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  await app.register(async (reference) => {
    reference.addHook('onRequest', async (_request, reply) => setPageSecurityHeaders(reply));
    await reference.register(swaggerUi, {
      routePrefix: REFERENCE_PATH,
      // Swagger UI would otherwise ask validator.swagger.io for a badge: nothing leaves the server.
      uiConfig: { validatorUrl: null, deepLinking: true, docExpansion: 'list' },
      theme: { title: 'Atrium REST API reference' },
    });
  });
}
