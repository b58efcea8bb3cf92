import { Type } from 'typebox';
import { readOwnPreferences, setOwnPreferences, type UserPreferences } from '../../directory/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';

const PreferencesBody = Type.Object({
  last_workspace_id: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The Workspace the user last chose to work in, where the web console opens; null until chosen, or once it is gone or no longer theirs to work in',
  }),
});

function body(preferences: UserPreferences) {
  return { last_workspace_id: preferences.lastWorkspaceId };
}

/**
 * GET and PATCH/PUT /user_preferences (an Atrium extension): the caller's own choices that should
 * follow them to a new tab or another browser, such as the Workspace the console opens in
 * (docs/workspaces-users-groups.md#the-workspace-one-works-in).
 */
export function userPreferenceRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/user_preferences', {
    schema: { summary: 'Show the caller\'s own preferences (Atrium extension)', querystring: Type.Object({}), response: { 200: PreferencesBody, ...errorResponses } },
  }, async (request) => body(await readOwnPreferences(callOf(request, deps))));

  app.route({
    method: UPDATE_METHODS,
    url: '/user_preferences',
    schema: {
      summary: 'Change the caller\'s own preferences (Atrium extension); a Workspace the caller may not work in is not-found/workspace-not-found',
      body: Type.Object({ last_workspace_id: Type.Optional(Type.Union([RecordId(), Type.Null()])) }),
      response: { 200: PreferencesBody, ...errorResponses },
    },
    handler: async (request) => body(await setOwnPreferences(callOf(request, deps), definedOnly({ lastWorkspaceId: request.body.last_workspace_id }))),
  });
}
