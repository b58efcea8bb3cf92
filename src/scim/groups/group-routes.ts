import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Call } from '../../access/index.js';
import { changeGroupMembers, createGroup, deleteGroup, getGroup, listGroups, updateGroup, type GroupWithMembers } from '../../directory/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { equalityOn, matcher, parseFilter } from '../filter.js';
import { listResponse, pageOf } from '../list-response.js';
import { applyPatch } from '../patch.js';
import { project } from '../projection.js';
import type { CallOf } from '../register-scim.js';
import { checkIfMatch } from '../resource-meta.js';
import { scimErrors } from '../scim-error.js';
import { listSortOf, sortedResources } from '../sorting.js';
import { resourceId, scimBase, scimQuery } from '../scim-request.js';
import { ATRIUM_GROUP_SCHEMA, GROUP_ATTRIBUTES, GROUP_FILTERABLE, GROUP_SCHEMA, GROUP_SORTABLE, GROUP_SUB_ATTRIBUTES, groupFieldsOf, idsOf, toScimGroup, type ScimGroup } from './group-resource.js';

const HIDDEN = { schema: { hide: true } };
const READ_PAGE = 1000;

/**
 * /Groups: the directory feature decides, as for /groups and /group_users of the REST API. Member
 * changes go through the same calls as /group_users, so a Group Admin's key may add and remove
 * members of its groups and nothing else.
 */
export function groupRoutes(scim: FastifyInstance, callOf: CallOf): void {
  scim.get('/Groups', HIDDEN, async (request) => {
    const a = callOf(request);
    const query = scimQuery(request);
    const page = pageOf(query);
    const filter = query.filter === undefined ? undefined : parseFilter(query.filter, GROUP_FILTERABLE);
    const sort = listSortOf(query, GROUP_SORTABLE, GROUP_SCHEMA);
    // Read through the feature (only the groups the caller may see), the plain `eq` on a name or an
    // externalId by the repository; any other filter is evaluated on that authorised set.
    const groups = await visibleGroups(a, {
      ...definedOnly({ name: filter === undefined ? undefined : equalityOn(filter, 'displayName') }),
      ...definedOnly({ externalId: filter === undefined ? undefined : equalityOn(filter, 'externalId') }),
    });
    const resources = groups.map((g) => toScimGroup(g, scimBase(request)));
    const matching = filter === undefined ? resources : resources.filter(matcher(filter));
    const listed = listResponse(sortedResources(matching, sort), page);
    return { ...listed, Resources: listed.Resources.map((r) => project(r, query)) };
  });

  scim.get<{ Params: { id: string } }>('/Groups/:id', HIDDEN, async (request, reply) => {
    const resource = await currentGroup(callOf(request), request, request.params.id);
    return reply.header('ETag', resource.meta.version).send(project(resource, scimQuery(request)));
  });

  scim.post('/Groups', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const fields = groupFieldsOf(request.body as Record<string, unknown>);
    const created = await createGroup(a, {
      name: fields.name,
      userIds: fields.userIds,
      ...definedOnly({ adminIds: fields.adminIds, workspaceId: fields.workspaceId }),
      externalId: fields.externalId,
    });
    const resource = toScimGroup(created, scimBase(request));
    return reply.code(201).header('Location', resource.meta.location).header('ETag', resource.meta.version).send(resource);
  });

  scim.put<{ Params: { id: string } }>('/Groups/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentGroup(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    const fields = groupFieldsOf(request.body as Record<string, unknown>);
    checkWorkspaceUnchanged(current, fields.workspaceId);
    const updated = await updateGroup(a, Number(current.id), {
      name: fields.name,
      userIds: fields.userIds,
      ...definedOnly({ adminIds: fields.adminIds }),
      ...(fields.statesExternalId ? { externalId: fields.externalId } : {}),
    });
    const resource = toScimGroup(updated, scimBase(request));
    return reply.header('ETag', resource.meta.version).send(resource);
  });

  scim.patch<{ Params: { id: string } }>('/Groups/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentGroup(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    const patched = applyPatch(current as unknown as Record<string, unknown>, request.body, {
      attributes: GROUP_ATTRIBUTES,
      subAttributes: GROUP_SUB_ATTRIBUTES,
      extensions: [ATRIUM_GROUP_SCHEMA],
    });
    await applyGroupChanges(a, current, patched);
    const resource = await currentGroup(a, request, current.id);
    return reply.header('ETag', resource.meta.version).send(resource);
  });

  scim.delete<{ Params: { id: string } }>('/Groups/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentGroup(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    await deleteGroup(a, Number(current.id));
    return reply.code(204).send();
  });
}

/**
 * A patched group turned into one feature call, so a PATCH applies whole or not at all (RFC 7644
 * 3.5.2). A change of the group's own fields (name, externalId, admins: administrators of its
 * Workspace only) goes with the members in one `updateGroup`; a members-only change, the only kind
 * a Group Admin may make, is one `changeGroupMembers` under the membership authority of
 * /group_users.
 */
async function applyGroupChanges(a: Call, current: ScimGroup, patched: Record<string, unknown>): Promise<void> {
  const name = patched.displayName;
  if (typeof name !== 'string' || name.trim() === '') throw scimErrors.invalidValue('"displayName" is required.');
  const extension = (patched[ATRIUM_GROUP_SCHEMA] ?? {}) as { workspace_id?: unknown; admins?: unknown };
  checkWorkspaceUnchanged(current, extension.workspace_id as number | undefined);
  const externalId = patched.externalId;
  if (externalId !== undefined && typeof externalId !== 'string') throw scimErrors.invalidValue('"externalId" must be a string.');
  const adminIds = idsOf('admins', extension.admins);
  const currentAdminIds = idsOf('admins', current[ATRIUM_GROUP_SCHEMA].admins);
  const adminsChanged = adminIds.length !== currentAdminIds.length || adminIds.some((id) => !currentAdminIds.includes(id));
  const ownChanges = {
    ...(name === current.displayName ? {} : { name }),
    ...((externalId ?? null) === (current.externalId ?? null) ? {} : { externalId: (externalId as string | undefined) ?? null }),
    ...(adminsChanged ? { adminIds } : {}),
  };
  const wanted = idsOf('members', patched.members);
  if (Object.keys(ownChanges).length > 0) {
    // Admins stay members (updateGroup makes every admin a member).
    await updateGroup(a, Number(current.id), { ...ownChanges, userIds: wanted });
    return;
  }
  const currentIds = idsOf('members', current.members);
  await changeGroupMembers(a, Number(current.id), {
    add: wanted.filter((id) => !currentIds.includes(id)),
    remove: currentIds.filter((id) => !wanted.includes(id)),
  });
}

function checkWorkspaceUnchanged(current: ScimGroup, workspaceId: number | undefined): void {
  if (workspaceId !== undefined && workspaceId !== current[ATRIUM_GROUP_SCHEMA].workspace_id) {
    throw scimErrors.mutability('"workspace_id" is set when a group is created and cannot be changed.');
  }
}

async function currentGroup(a: Call, request: FastifyRequest, rawId: string): Promise<ScimGroup> {
  const id = resourceId(rawId);
  if (id === undefined) throw scimErrors.notFound('Group not found.');
  return toScimGroup(await getGroup(a, id), scimBase(request));
}

async function visibleGroups(a: Call, filter: { name?: string; externalId?: string }): Promise<GroupWithMembers[]> {
  const all: GroupWithMembers[] = [];
  let afterId = 0;
  for (;;) {
    const page = await listGroups(a, filter, { afterId, limit: READ_PAGE });
    all.push(...page);
    if (page.length < READ_PAGE) return all;
    afterId = (page[page.length - 1] as GroupWithMembers).group.id;
  }
}
