import type { ApiInstance } from '../fastify-types.js';

/** The OpenAPI 3 document generated from the route schemas; `/openapi.json` reaches it too. */
export function openApiRoutes(app: ApiInstance): void {
  app.get('/openapi', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
