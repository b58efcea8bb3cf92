import { Type } from 'typebox';
import type { Call } from '../../access/index.js';
import { createUser, deleteUser, getUser, resendWelcomeEmail, resetUserTwoFactor, unlockUser, userSecondFactors, updateUserFields, userGroupIds, userLockouts, userPartnerNames, usersWithVisibleNotes, type User, type UserSortField } from '../../directory/index.js';
import { reviewChange, userChangeScope } from '../../access-review/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { callOf, confirmIdentity } from '../call.js';
import { DryRunBody, DryRunQuery, isDryRun, sendDryRun } from '../dry-run.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import { readSortedPage, requestedOrder } from '../sorted-cursor.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { IdList, parseIdList } from '../id-lists.js';
import { UserBody, userBody, UserProfileFields, userProfileInput } from './user-body.js';
import { USER_LIST_PARAMETERS, userFilterOf } from './user-list-parameters.js';
import { renderedUsersPage } from './users-response.js';
import { AuthenticationFields, authenticationInput } from './user-authentication-fields.js';

const UserFields = {
  username: Type.Optional(Type.String({ maxLength: 1024 })),
  password: Type.Optional(Type.String({ maxLength: 4096 })),
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  email: Type.Optional(Type.String({ maxLength: 1024 })),
  site_admin: Type.Optional(Type.Boolean()),
  workspace_admin: Type.Optional(Type.Boolean()),
  // The Partner the user belongs to: set on creation; sent back unchanged it is no change (docs/partners.md).
  partner_id: Type.Optional(Type.Union([RecordId({ minimum: 1 }), Type.Null()])),
  partner_admin: Type.Optional(Type.Boolean()),
  ...UserProfileFields,
  ...AuthenticationFields,
};

export function userRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/users', {
    schema: {
      summary: 'List the users the caller may see in the request context',
      description: 'Filters and sorts as the Files.com SDKs send them (`filter[email]=`, `filter_prefix[name]=`, `filter_gt[last_login_at]=`, '
        + '`sort_by[name]=desc`, `search=`); text compares without regard to case. A field Atrium cannot filter or sort on is refused, never ignored.',
      querystring: Type.Object({
        ...paginationQuery,
        ...listParameterQuery(USER_LIST_PARAMETERS),
        ids: Type.Optional(Type.String({ maxLength: 100_000 })),
        search: Type.Optional(Type.String({ maxLength: 1024, description: 'part of the username, the name or the email' })),
        include_parent_site_users: Type.Optional(Type.Boolean({ description: 'accepted; a site of Atrium has no parent site, so the answer is the same' })),
      }),
      response: { 200: Type.Array(UserBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(USER_LIST_PARAMETERS, request.query);
    const order = requestedOrder<UserSortField>(parameters.sort);
    const page = readSortedPage('users', request.query, order);
    const filter = userFilterOf(parameters, request.query.search, parseIdList('ids', request.query.ids));
    const a = callOf(request, deps);
    const rendered = await renderedUsersPage(a, filter, page, order === undefined, (body: unknown) => reply.serialize(body) as string);
    if (rendered.cursor !== undefined) setCursorHeaders(reply, deps.headers, rendered.cursor);
    // Already JSON, made by this route's own serializer: sent as it is.
    return reply.type('application/json; charset=utf-8').send(rendered.json as never);
  });

  app.post('/users', {
    schema: {
      summary: 'Create a user (administrators of the context; a Partner Admin, of its Partner, with allow_user_creation)',
      body: Type.Object({
        ...UserFields,
        username: Type.String({ maxLength: 1024 }),
        workspace_id: Type.Optional(RecordId()),
        group_ids: Type.Optional(IdList),
      }),
      response: { 201: UserBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const body = request.body;
    const groupIds = parseIdList('group_ids', body.group_ids);
    const a = callOf(request, deps);
    const user = await createUser(a, {
      username: body.username,
      ...definedOnly({
        password: body.password, name: body.name, email: body.email, workspaceId: body.workspace_id, siteAdmin: body.site_admin, workspaceAdmin: body.workspace_admin, groupIds,
        partnerId: body.partner_id, partnerAdmin: body.partner_admin,
      }),
      profile: userProfileInput(body),
      authentication: authenticationInput(body),
    });
    return reply.code(201).send(await withGroups(a, user));
  });

  app.get('/users/:id', {
    config: { duringPasswordChange: 'own-user' },
    schema: { summary: 'Show a user', params: IdParams, response: { 200: UserBody, ...errorResponses } },
  }, async (request) => {
    const a = callOf(request, deps);
    return withGroups(a, await getUser(a, request.params.id));
  });

  app.route({
    method: UPDATE_METHODS,
    url: '/users/:id',
    config: { duringPasswordChange: 'own-user' },
    schema: {
      ...asksForReauthentication,
      summary: 'Update a user (administrators; the user itself for password, name and email; a Partner Admin with allow_credential_changes for its Partner users\' passwords)',
      params: IdParams,
      querystring: Type.Object(DryRunQuery),
      body: Type.Object({
        ...UserFields,
        disabled: Type.Optional(Type.Boolean()),
        // The whole list of the user's groups (directory/user-groups.ts).
        group_ids: Type.Optional(IdList),
        // With partner_id: makes the user one of that Partner's (docs/partners.md).
        convert_to_partner_user: Type.Optional(Type.Boolean()),
        // Files.com's write-only field: true resets the user's two-factor authentication, as POST /users/<id>/2fa/reset does.
        clear_2fa: Type.Optional(Type.Boolean({ description: 'true: remove every second factor and recovery code of the user and end its sessions (as POST /users/{id}/2fa/reset)' })),
        ...DryRunQuery,
      }),
      response: { 200: Type.Union([UserBody, DryRunBody]), ...errorResponses },
    },
    handler: async (request, reply) => {
      const body = request.body;
      const a = callOf(request, deps);
      const dryRun = isDryRun(request.query, body);
      const fields = definedOnly({
        username: body.username, password: body.password, name: body.name, email: body.email,
        siteAdmin: body.site_admin, workspaceAdmin: body.workspace_admin, disabled: body.disabled,
        groupIds: parseIdList('group_ids', body.group_ids), partnerId: body.partner_id, partnerAdmin: body.partner_admin,
        convertToPartnerUser: body.convert_to_partner_user, profile: userProfileInput(body), authentication: authenticationInput(body),
      });
      // A dry run changes nothing, so it asks no password; the real change asks as always.
      const confirm = dryRun ? async () => undefined : confirmIdentity(request, deps, a);
      const changesAccess = body.site_admin !== undefined || body.workspace_admin !== undefined || body.disabled !== undefined || body.group_ids !== undefined
        || body.convert_to_partner_user === true;
      let updated: User;
      if (!changesAccess && !dryRun) updated = await updateUserFields(a, request.params.id, fields, confirm);
      else {
        const { result, difference } = await reviewChange(a, dryRun, userChangeScope(request.params.id, fields.groupIds), (c) => updateUserFields(c, request.params.id, fields, confirm));
        if (result === undefined) return sendDryRun(reply, a, difference);
        updated = result;
      }
      // After the fields, so that a change refused for a field resets nothing.
      if (body.clear_2fa === true) await resetUserTwoFactor(a, request.params.id, confirm);
      return withGroups(a, updated);
    },
  });

  app.delete('/users/:id', {
    schema: {
      ...asksForReauthentication,
      summary: 'Delete a user',
      params: IdParams,
      querystring: Type.Object(DryRunQuery),
      response: { 200: DryRunBody, 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const dryRun = isDryRun(request.query);
    const confirm = dryRun ? async () => undefined : confirmIdentity(request, deps, a);
    const { difference } = await reviewChange(a, dryRun, userChangeScope(request.params.id), (c) => deleteUser(c, request.params.id, confirm));
    if (dryRun) return sendDryRun(reply, a, difference);
    return reply.code(204).send(null);
  });

  app.post('/users/:id/unlock', {
    schema: {
      summary: 'End a user\'s sign-in lockout (administrators of its Workspace)',
      description: 'The lockout ends now and the user\'s failed sign-ins are forgotten, so it has all its tries again. A user who is not locked out is answered the same.',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    await unlockUser(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/users/:id/2fa/reset', {
    schema: {
      ...asksForReauthentication,
      summary: 'Reset a user\'s two-factor authentication, for one who lost its device (administrators who may act as the user)',
      description: 'Every second factor and recovery code of the user is removed and its sessions end; it signs in with its password alone again, '
        + 'or, where the site requires two-factor authentication, is led through setting it up at its next sign-in.',
      params: IdParams,
      body: Type.Unknown({ description: 'Ignored.' }),
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await resetUserTwoFactor(a, request.params.id, confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });

  app.post('/users/:id/resend_welcome_email', {
    schema: {
      summary: 'Send a user\'s welcome email again: refused, Atrium has no mail server',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request) => resendWelcomeEmail(callOf(request, deps), request.params.id));
}

/** The user as shown: with its groups and, when it is locked out, when that ends. */
async function withGroups(a: Call, user: User) {
  const groups = await userGroupIds(a, [user.id]);
  const lockouts = await userLockouts(a, [user]);
  const partnerNames = await userPartnerNames(a, [user]);
  const secondFactors = await userSecondFactors(a, [user]);
  return userBody(user, groups.get(user.id), (await usersWithVisibleNotes(a, [user])).has(user.id), lockouts.get(user.id), partnerNames.get(user.id), secondFactors.get(user.id));
}
