import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { openApiRoutes } from './openapi.js';
import { workspaceRoutes } from './workspaces.js';

/** Every route under the API root, one module per resource. */
export function registerApiRoutes(api: ApiInstance, deps: RouteDeps): void {
  openApiRoutes(api);
  workspaceRoutes(api, deps);
}
