import { Type } from 'typebox';
import { createGroup, deleteGroup, getGroup, type GroupSortField, groupSortValue, listGroups, updateGroup, type GroupWithMembers } from '../../directory/index.js';
import { groupDeletionScope, reviewChange } from '../../access-review/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { callOf } from '../call.js';
import { DryRunBody, DryRunQuery, isDryRun, sendDryRun } from '../dry-run.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../sorted-cursor.js';
import { GROUP_LIST_PARAMETERS, groupFilterOf } from './group-list-parameters.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { IdList, parseIdList } from '../id-lists.js';

const GroupBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  workspace_id: Type.Integer(),
  user_ids: Type.String({ description: 'comma-separated user ids' }),
  admin_ids: Type.String({ description: 'comma-separated user ids of Group Admins' }),
  usernames: Type.String({ description: 'comma-separated user names' }),
  notes: Type.String(),
  sftp_permission: Type.Boolean({ description: 'true lets every member use SFTP whatever the member\'s own flag says' }),
  dav_permission: Type.Boolean(),
  ftp_permission: Type.Boolean(),
  restapi_permission: Type.Boolean(),
  allowed_ips: Type.String({ description: 'newline-separated addresses and CIDR ranges its members may come from, besides their own; empty adds none' }),
});

function groupBody({ group, members }: GroupWithMembers) {
  return {
    id: group.id,
    name: group.name,
    workspace_id: group.workspaceId,
    user_ids: members.map((m) => m.userId).join(','),
    admin_ids: members.filter((m) => m.admin).map((m) => m.userId).join(','),
    usernames: members.map((m) => m.username).join(','),
    notes: group.profile.notes,
    sftp_permission: group.profile.sftpPermission,
    dav_permission: group.profile.davPermission,
    ftp_permission: group.profile.ftpPermission,
    restapi_permission: group.profile.restapiPermission,
    allowed_ips: group.profile.allowedIps,
  };
}

/** A group's notes, protocol flags and addresses as a request sends them; fields not sent stay absent. */
function groupProfileInput(body: { notes?: string | null; sftp_permission?: boolean; dav_permission?: boolean; ftp_permission?: boolean; restapi_permission?: boolean; allowed_ips?: string | null }) {
  return definedOnly({
    notes: body.notes === null ? '' : body.notes,
    sftpPermission: body.sftp_permission, davPermission: body.dav_permission, ftpPermission: body.ftp_permission, restapiPermission: body.restapi_permission,
    allowedIps: body.allowed_ips === null ? '' : body.allowed_ips,
  });
}

const GroupFields = {
  user_ids: Type.Optional(IdList),
  admin_ids: Type.Optional(IdList),
  notes: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
  sftp_permission: Type.Optional(Type.Boolean()),
  dav_permission: Type.Optional(Type.Boolean()),
  ftp_permission: Type.Optional(Type.Boolean()),
  restapi_permission: Type.Optional(Type.Boolean()),
  allowed_ips: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
};

export function groupRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/groups', {
    schema: {
      summary: 'List the groups the caller may see in the request context',
      description: 'Filters and sorts as the Files.com SDKs send them (`filter[name]=`, `filter_prefix[name]=`, `sort_by[name]=desc`); '
        + 'names compare without regard to case. A field Atrium cannot filter or sort on is refused, never ignored.',
      querystring: Type.Object({
        ...paginationQuery,
        ...listParameterQuery(GROUP_LIST_PARAMETERS),
        ids: Type.Optional(Type.String({ maxLength: 100_000 })),
        include_parent_site_groups: Type.Optional(Type.Boolean({ description: 'accepted; a site of Atrium has no parent site, so the answer is the same' })),
      }),
      response: { 200: Type.Array(GroupBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(GROUP_LIST_PARAMETERS, request.query);
    const order = requestedOrder<GroupSortField>(parameters.sort);
    const page = readSortedPage('groups', request.query, order);
    const filter = groupFilterOf(parameters, parseIdList('ids', request.query.ids));
    // One row more than the page, to learn whether another page follows.
    const groups = await listGroups(callOf(request, deps), filter, { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('groups', groups, page, order === undefined, ({ group }) => ({ value: groupSortValue(group, page.sort.field), id: group.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    return listed.rows.map(groupBody);
  });

  app.post('/groups', {
    schema: {
      summary: 'Create a group (administrators of the context)',
      body: Type.Object({ name: Type.String({ maxLength: 1024 }), workspace_id: Type.Optional(RecordId()), ...GroupFields }),
      response: { 201: GroupBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const body = request.body;
    const created = await createGroup(callOf(request, deps), {
      name: body.name,
      ...definedOnly({ workspaceId: body.workspace_id, userIds: parseIdList('user_ids', body.user_ids), adminIds: parseIdList('admin_ids', body.admin_ids) }),
      profile: groupProfileInput(body),
    });
    return reply.code(201).send(groupBody(created));
  });

  app.get('/groups/:id', {
    schema: { summary: 'Show a group', params: IdParams, response: { 200: GroupBody, ...errorResponses } },
  }, async (request) => groupBody(await getGroup(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/groups/:id',
    schema: {
      summary: "Update a group's name, members and Group Admins",
      params: IdParams,
      body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), ...GroupFields }),
      response: { 200: GroupBody, ...errorResponses },
    },
    handler: async (request) => {
      const body = request.body;
      const updated = await updateGroup(callOf(request, deps), request.params.id, { ...definedOnly({
        name: body.name, userIds: parseIdList('user_ids', body.user_ids), adminIds: parseIdList('admin_ids', body.admin_ids),
      }), profile: groupProfileInput(body) });
      return groupBody(updated);
    },
  });

  app.delete('/groups/:id', {
    schema: {
      summary: 'Delete a group with its memberships and grants',
      params: IdParams,
      querystring: Type.Object(DryRunQuery),
      response: { 200: DryRunBody, 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const dryRun = isDryRun(request.query);
    const { difference } = await reviewChange(a, dryRun, groupDeletionScope(request.params.id), (c) => deleteGroup(c, request.params.id));
    if (dryRun) return sendDryRun(reply, a, difference);
    return reply.code(204).send(null);
  });
}
