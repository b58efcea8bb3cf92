import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { apiKeyRoutes } from './api-keys.js';
import { openApiRoutes } from './openapi.js';
import { sessionRoutes } from './sessions.js';
import { siteRoutes } from './site.js';
import { workspaceRoutes } from './workspaces.js';

/** Every route under the API root, one module per resource. */
export function registerApiRoutes(api: ApiInstance, deps: RouteDeps): void {
  openApiRoutes(api);
  sessionRoutes(api, deps);
  apiKeyRoutes(api, deps);
  siteRoutes(api, deps);
  workspaceRoutes(api, deps);
}
