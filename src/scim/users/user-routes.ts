import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Call } from '../../access/index.js';
import { createProvisionedUser, deleteUser, getUser, listUsers, updateUserFields, userGroupIds, visibleGroupNames, type User } from '../../directory/index.js';
import { identityConfirmation } from '../../identity/index.js';
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
import { ATRIUM_USER_SCHEMA, fieldsOf, namePartsOf, toScimUser, USER_ATTRIBUTES, USER_FILTERABLE, USER_SCHEMA, USER_SORTABLE, USER_SUB_ATTRIBUTES, type ScimUser } from './user-resource.js';

const HIDDEN = { schema: { hide: true } };
const READ_PAGE = 1000;

/** /Users: every decision is the directory feature's, exactly as for /users of the REST API. */
export function userRoutes(scim: FastifyInstance, callOf: CallOf): void {
  scim.get('/Users', HIDDEN, async (request) => {
    const a = callOf(request);
    const query = scimQuery(request);
    const page = pageOf(query);
    const filter = query.filter === undefined ? undefined : parseFilter(query.filter, USER_FILTERABLE);
    const sort = listSortOf(query, USER_SORTABLE, USER_SCHEMA);
    // The users the caller may see are read through the feature, the plain `userName eq` by the
    // repository's own index; any other filter is evaluated on that authorised set in SCIM form.
    const users = await visibleUsers(a, {
      ...definedOnly({ username: filter === undefined ? undefined : equalityOn(filter, 'userName') }),
      ...definedOnly({ externalId: filter === undefined ? undefined : equalityOn(filter, 'externalId') }),
    });
    const resources = await scimUsers(a, users, scimBase(request));
    const matching = filter === undefined ? resources : resources.filter(matcher(filter));
    const listed = listResponse(sortedResources(matching, sort), page);
    return { ...listed, Resources: listed.Resources.map((r) => project(r, query)) };
  });

  scim.get<{ Params: { id: string } }>('/Users/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const resource = await currentUser(a, request, request.params.id);
    return reply.header('ETag', resource.meta.version).send(project(resource, scimQuery(request)));
  });

  scim.post('/Users', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const fields = fieldsOf(request.body as Record<string, unknown>);
    // An inactive user is created disabled, in the same statement: never active for a moment.
    const user = await createProvisionedUser(a, {
      username: fields.username,
      name: fields.name,
      nameParts: fields.nameParts,
      email: fields.email,
      ...(fields.password === undefined ? {} : { password: fields.password }),
      ...(fields.workspaceId === undefined ? {} : { workspaceId: fields.workspaceId }),
      ...(fields.partnerId === undefined ? {} : { partnerId: fields.partnerId }),
      externalId: fields.externalId,
      disabled: !fields.active,
    });
    const resource = (await scimUsers(a, [user], scimBase(request)))[0] as ScimUser;
    return reply.code(201).header('Location', resource.meta.location).header('ETag', resource.meta.version).send(resource);
  });

  scim.put<{ Params: { id: string } }>('/Users/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentUser(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    const resource = await replaceUser(a, request, current, request.body as Record<string, unknown>);
    return reply.header('ETag', resource.meta.version).send(resource);
  });

  scim.patch<{ Params: { id: string } }>('/Users/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentUser(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    const patched = applyPatch(current as unknown as Record<string, unknown>, request.body, {
      attributes: USER_ATTRIBUTES,
      subAttributes: USER_SUB_ATTRIBUTES,
      extensions: [ATRIUM_USER_SCHEMA],
    });
    if (JSON.stringify(patched.groups ?? []) !== JSON.stringify(current.groups)) {
      throw scimErrors.mutability('"groups" is read-only: change memberships through /Groups.');
    }
    const resource = await replaceUser(a, request, current, withNameFromPatch(current, patched), true);
    return reply.header('ETag', resource.meta.version).send(resource);
  });

  scim.delete<{ Params: { id: string } }>('/Users/:id', HIDDEN, async (request, reply) => {
    const a = callOf(request);
    const current = await currentUser(a, request, request.params.id);
    checkIfMatch(request.headers['if-match'], current.meta.version);
    // The same deletion as DELETE /users/<id>: its sessions, keys and memberships end with it.
    await deleteUser(a, Number(current.id), identityConfirmation(a, undefined));
    return reply.code(204).send();
  });
}

/**
 * PUT, or the result of a PATCH, turned into one update of the user. Only what differs is sent, so
 * an unchanged attribute never needs more authority than the change itself.
 */
async function replaceUser(a: Call, request: FastifyRequest, current: ScimUser, body: Record<string, unknown>, patched = false): Promise<ScimUser> {
  if (body.id !== undefined && String(body.id) !== current.id) throw scimErrors.mutability('"id" cannot be changed.');
  const fields = fieldsOf(body);
  const workspaceId = current[ATRIUM_USER_SCHEMA].workspace_id;
  if (fields.workspaceId !== undefined && fields.workspaceId !== workspaceId) {
    throw scimErrors.mutability('"workspace_id" is set when a user is created and cannot be changed.');
  }
  if (fields.partnerId !== undefined && fields.partnerId !== current[ATRIUM_USER_SCHEMA].partner_id) {
    throw scimErrors.mutability('"partner_id" is set when a user is created and cannot be changed through SCIM.');
  }
  const currentEmail = current.emails?.[0]?.value ?? '';
  const user = await updateUserFields(a, Number(current.id), {
    ...(fields.username === current.userName ? {} : { username: fields.username }),
    ...(fields.name === current.displayName ? {} : { name: fields.name }),
    nameParts: fields.nameParts,
    ...(fields.email === currentEmail ? {} : { email: fields.email }),
    ...(fields.active === current.active ? {} : { disabled: !fields.active }),
    // A PUT that leaves out `externalId` keeps it: providers link records by it and do not all send it back.
    ...(fields.externalId === (current.externalId ?? null) || (!patched && !hasKey(body, 'externalId')) ? {} : { externalId: fields.externalId }),
    ...(fields.password === undefined || (patched && body.password === undefined) ? {} : { password: fields.password }),
  }, identityConfirmation(a, undefined));
  return (await scimUsers(a, [user], scimBase(request)))[0] as ScimUser;
}

/**
 * Atrium keeps one name, shown as both `displayName` and `name.formatted`, and beside it the parts
 * an identity provider sent. Whichever of `displayName` and `name.formatted` a PATCH changed is the
 * new name; a change of `name.givenName`/`familyName` alone makes it from the parts. The parts are
 * kept as patched either way.
 */
function withNameFromPatch(current: ScimUser, patched: Record<string, unknown>): Record<string, unknown> {
  const name = { ...((patched.name as Record<string, unknown> | undefined) ?? {}) };
  if (patched.displayName !== current.displayName) return { ...patched, name: { ...name, formatted: patched.displayName ?? '' } };
  const parts = namePartsOf(name);
  const partsChanged = parts.givenName !== (current.name.givenName ?? null) || parts.familyName !== (current.name.familyName ?? null);
  if (name.formatted !== current.name.formatted || !partsChanged) return { ...patched, name };
  // A user whose parts were never sent has them from its current name split at its first space
  // (given, family); the parts the PATCH sent replace theirs.
  const neverSent = current.name.givenName === undefined && current.name.familyName === undefined;
  const [given = '', ...rest] = current.name.formatted.split(' ');
  const { formatted: _remade, ...sent } = name;
  return { ...patched, name: neverSent ? { givenName: given, familyName: rest.join(' '), ...sent } : sent };
}

function hasKey(body: Record<string, unknown>, name: string): boolean {
  return Object.keys(body).some((k) => k.toLowerCase() === name.toLowerCase());
}

async function currentUser(a: Call, request: FastifyRequest, rawId: string): Promise<ScimUser> {
  const id = resourceId(rawId);
  if (id === undefined) throw scimErrors.notFound('User not found.');
  return (await scimUsers(a, [await getUser(a, id)], scimBase(request)))[0] as ScimUser;
}

async function visibleUsers(a: Call, filter: { username?: string; externalId?: string }): Promise<User[]> {
  const all: User[] = [];
  let afterId = 0;
  for (;;) {
    const page = await listUsers(a, filter, { afterId, limit: READ_PAGE });
    all.push(...page);
    if (page.length < READ_PAGE) return all;
    afterId = (page[page.length - 1] as User).id;
  }
}

async function scimUsers(a: Call, users: readonly User[], base: string): Promise<ScimUser[]> {
  const groups = await userGroupIds(a, users.map((u) => u.id));
  const names = await visibleGroupNames(a, [...groups.values()].flatMap((g) => g.groupIds));
  return users.map((u) => toScimUser(u, groups.get(u.id), names, base));
}
