import { Type } from 'typebox';
import { readSitePolicies } from '../../identity/index.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';

const PoliciesBody = Type.Object({
  users_can_create_api_keys: Type.Boolean({ description: 'Users who are not administrators may create their own API keys' }),
  password_min_length: Type.Integer({ description: 'Minimum length of a new password, in characters' }),
  trash_retention_days: Type.Integer({ description: 'Days a deleted file or folder stays in the trash, restorable, before it is purged' }),
});

/**
 * GET /site/policies: the site settings that decide what every signed-in user may do themselves,
 * so that a client (the web console) can offer only what will work. The other settings, and
 * changing any, stay with Site Administrators (GET/PATCH /site).
 */
export function sitePolicyRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/site/policies', {
    // A password form shows the site's rules, also to a user who must change its password first.
    config: { duringPasswordChange: 'always' },
    schema: { summary: 'Show the site rules that apply to every user', querystring: Type.Object({}), response: { 200: PoliciesBody, ...errorResponses } },
  }, async (request) => readSitePolicies(callOf(request, deps)));
}
