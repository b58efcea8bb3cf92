import type { ApiInstance } from '../fastify-types.js';
import { refuseUnsupportedParameters } from '../refuse-unsupported-parameters.js';
import type { RouteDeps } from '../route-deps.js';
import { apiKeyRoutes } from './api-keys.js';
import { automationRunRoutes } from './automation-runs.js';
import { automationRoutes } from './automations.js';
import { automationWebhookRoutes } from './automation-webhooks.js';
import { bundleRecordRoutes } from './bundle-records.js';
import { bundleRoutes } from './bundles.js';
import { connectionDetailRoutes } from './connection-details.js';
import { filesAndFoldersRoutes } from './files/index.js';
import { fileVersionRoutes } from './file-versions.js';
import { groupUserRoutes } from './group-users.js';
import { groupRoutes } from './groups.js';
import { historyRoutes } from './history/index.js';
import { lockRoutes } from './locks.js';
import { openApiRoutes } from './openapi.js';
import { partnerRoutes } from './partners.js';
import { permissionRoutes } from './permissions/index.js';
import { publicKeyRoutes } from './public-keys.js';
import { sessionRoutes } from './sessions.js';
import { sitePolicyRoutes } from './site-policies.js';
import { trashRoutes } from './trash.js';
import { siteRoutes } from './site.js';
import { siteUsageRoutes } from './site-usage.js';
import { userPreferenceRoutes } from './user-preferences.js';
import { userRoutes } from './users.js';
import { workspaceRoutes } from './workspaces.js';

/** Every route under the API root, one module per resource. */
export function registerApiRoutes(api: ApiInstance, deps: RouteDeps): void {
  // Before any route, so that it sees each one as it is added.
  refuseUnsupportedParameters(api);
  openApiRoutes(api);
  sessionRoutes(api, deps);
  apiKeyRoutes(api, deps);
  publicKeyRoutes(api, deps);
  siteRoutes(api, deps);
  sitePolicyRoutes(api, deps);
  siteUsageRoutes(api, deps);
  workspaceRoutes(api, deps);
  permissionRoutes(api, deps);
  userRoutes(api, deps);
  userPreferenceRoutes(api, deps);
  connectionDetailRoutes(api, deps);
  groupRoutes(api, deps);
  groupUserRoutes(api, deps);
  partnerRoutes(api, deps);
  automationRoutes(api, deps);
  automationRunRoutes(api, deps);
  automationWebhookRoutes(api, deps);
  bundleRoutes(api, deps);
  bundleRecordRoutes(api, deps);
  filesAndFoldersRoutes(api, deps);
  trashRoutes(api, deps);
  fileVersionRoutes(api, deps);
  lockRoutes(api, deps);
  historyRoutes(api, deps);
}
