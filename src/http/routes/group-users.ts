import { Type } from 'typebox';
import { addGroupMember, listGroupMemberships, removeGroupMember, updateGroupMember, type GroupMember } from '../../directory/index.js';
import { memberAdditionScope, memberRemovalScope, reviewChange } from '../../access-review/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { callOf } from '../call.js';
import { DryRunBody, DryRunQuery, isDryRun, sendDryRun } from '../dry-run.js';
import type { ApiInstance } from '../fastify-types.js';
import { idPageQuery, paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';

const GroupUserBody = Type.Object({
  id: Type.Integer(),
  group_id: Type.Integer(),
  user_id: Type.Integer(),
  admin: Type.Boolean(),
  username: Type.String(),
  usernames: Type.String({ description: 'the same as `username`: the name the Files.com SDK 1.2.314 reads' }),
  group_name: Type.String(),
});

function groupUserBody(m: GroupMember) {
  return { id: m.membershipId, group_id: m.groupId, user_id: m.userId, admin: m.admin, username: m.username, usernames: m.username, group_name: m.groupName };
}

const Id = RecordId({ minimum: 1 });

export function groupUserRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/group_users', {
    schema: {
      summary: 'List group memberships the caller may see',
      querystring: Type.Object({ ...paginationQuery, group_id: Type.Optional(Id), user_id: Type.Optional(Id) }),
      response: { 200: Type.Array(GroupUserBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const page = readPage<number>('group_users', request.query, 'id');
    const rows = await listGroupMemberships(callOf(request, deps), definedOnly({ groupId: request.query.group_id, userId: request.query.user_id }), idPageQuery(page));
    return sendPage(reply, deps.headers, 'group_users', rows, page.limit, (m) => m.membershipId).map(groupUserBody);
  });

  app.post('/group_users', {
    schema: {
      summary: 'Add a member to a group (administrators, or Group Admins of that group)',
      querystring: Type.Object(DryRunQuery),
      body: Type.Object({ group_id: Id, user_id: Id, admin: Type.Optional(Type.Boolean()), ...DryRunQuery }),
      response: { 200: DryRunBody, 201: GroupUserBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const { group_id: groupId, user_id: userId, admin } = request.body;
    const a = callOf(request, deps);
    const dryRun = isDryRun(request.query, request.body);
    const { result, difference } = await reviewChange(a, dryRun, memberAdditionScope(groupId, userId), (c) => addGroupMember(c, { groupId, userId, admin: admin ?? false }));
    if (result === undefined) return sendDryRun(reply, a, difference);
    return reply.code(201).send(groupUserBody(result));
  });

  app.route({
    method: UPDATE_METHODS,
    url: '/group_users/:id',
    schema: {
      summary: 'Make a member a Group Admin or not (administrators)',
      params: IdParams,
      body: Type.Object({
        admin: Type.Optional(Type.Boolean()),
        group_id: Type.Optional(RecordId({ minimum: 1, description: 'the membership\'s own group (the SDK sends it); another one is refused' })),
        user_id: Type.Optional(RecordId({ minimum: 1, description: 'the membership\'s own user (the SDK sends it); another one is refused' })),
      }),
      response: { 200: GroupUserBody, ...errorResponses },
    },
    handler: async (request) => {
      const { admin, group_id: groupId, user_id: userId } = request.body;
      return groupUserBody(await updateGroupMember(callOf(request, deps), request.params.id, definedOnly({ admin, groupId, userId })));
    },
  });

  app.delete('/group_users/:id', {
    schema: {
      summary: 'Remove a member from a group',
      params: IdParams,
      querystring: Type.Object(DryRunQuery),
      response: { 200: DryRunBody, 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const dryRun = isDryRun(request.query);
    const { difference } = await reviewChange(a, dryRun, memberRemovalScope(request.params.id), (c) => removeGroupMember(c, request.params.id));
    if (dryRun) return sendDryRun(reply, a, difference);
    return reply.code(204).send(null);
  });
}
