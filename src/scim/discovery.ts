import type { FastifyInstance } from 'fastify';
import { ATRIUM_GROUP_SCHEMA, GROUP_SCHEMA } from './groups/group-resource.js';
import { MAX_RESULTS, LIST_SCHEMA } from './list-response.js';
import { scimErrors } from './scim-error.js';
import { scimBase } from './scim-request.js';
import { ATRIUM_USER_SCHEMA, USER_SCHEMA } from './users/user-resource.js';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** Routes anyone may read: they describe the service, not its data (RFC 7644 §4). */
export const PUBLIC = { schema: { hide: true }, config: { public: true } };

type Attribute = Record<string, unknown>;

const attr = (name: string, type: string, more: Attribute = {}): Attribute => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...more,
});

const SCHEMAS: { id: string; name: string; description: string; attributes: Attribute[] }[] = [
  {
    id: USER_SCHEMA, name: 'User', description: 'An Atrium user',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server', description: 'Unique across the site, compared without regard to case.' }),
      attr('externalId', 'string', { caseExact: true }),
      attr('name', 'complex', { subAttributes: [attr('formatted', 'string'), attr('givenName', 'string'), attr('familyName', 'string')] }),
      attr('displayName', 'string'),
      attr('emails', 'complex', { multiValued: true, description: 'Atrium keeps one address: the primary one, or the first.', subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')] }),
      attr('active', 'boolean'),
      attr('password', 'string', { mutability: 'writeOnly', returned: 'never' }),
      attr('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attr('value', 'string', { mutability: 'readOnly' }), attr('$ref', 'reference', { mutability: 'readOnly' }), attr('display', 'string', { mutability: 'readOnly', description: 'The group\'s name, when the caller may see the group.' })] }),
    ],
  },
  {
    id: ATRIUM_USER_SCHEMA, name: 'AtriumUser', description: 'Atrium attributes of a user',
    attributes: [
      attr('workspace_id', 'integer', { mutability: 'immutable', description: 'The Workspace the user belongs to (0: the site).' }),
      attr('partner_id', 'integer', { mutability: 'immutable', description: 'The Partner the user belongs to; set on create by an administrator of the Workspace.' }),
    ],
  },
  {
    id: GROUP_SCHEMA, name: 'Group', description: 'An Atrium group',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server' }),
      attr('externalId', 'string', { caseExact: true }),
      attr('members', 'complex', { multiValued: true, subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' }), attr('$ref', 'reference', { mutability: 'immutable' }), attr('type', 'string', { mutability: 'immutable' })] }),
    ],
  },
  {
    id: ATRIUM_GROUP_SCHEMA, name: 'AtriumGroup', description: 'Atrium attributes of a group',
    attributes: [
      attr('workspace_id', 'integer', { mutability: 'immutable' }),
      attr('admins', 'complex', { multiValued: true, description: 'The Group Admins: members who may add and remove members.', subAttributes: [attr('value', 'string'), attr('display', 'string', { mutability: 'readOnly' })] }),
    ],
  },
];

export function discoveryRoutes(scim: FastifyInstance): void {
  scim.get('/ServiceProviderConfig', PUBLIC, async (request) => ({
    schemas: [SPC_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: true },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'API key', description: 'An Atrium API key sent as "Authorization: Bearer <key>".', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${scimBase(request)}/ServiceProviderConfig` },
  }));

  const resourceTypes = (base: string) => [
    { schemas: [RESOURCE_TYPE_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', schema: USER_SCHEMA, schemaExtensions: [{ schema: ATRIUM_USER_SCHEMA, required: false }], meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` } },
    { schemas: [RESOURCE_TYPE_SCHEMA], id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP_SCHEMA, schemaExtensions: [{ schema: ATRIUM_GROUP_SCHEMA, required: false }], meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` } },
  ];
  scim.get('/ResourceTypes', PUBLIC, async (request) => listOf(resourceTypes(scimBase(request))));
  scim.get<{ Params: { id: string } }>('/ResourceTypes/:id', PUBLIC, async (request) => {
    const found = resourceTypes(scimBase(request)).find((r) => r.id === request.params.id);
    if (found === undefined) throw scimErrors.notFound('No such resource type.');
    return found;
  });

  const schemas = (base: string) => SCHEMAS.map((s) => ({ schemas: [SCHEMA_SCHEMA], ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } }));
  scim.get('/Schemas', PUBLIC, async (request) => listOf(schemas(scimBase(request))));
  scim.get<{ Params: { id: string } }>('/Schemas/:id', PUBLIC, async (request) => {
    const found = schemas(scimBase(request)).find((s) => s.id === request.params.id);
    if (found === undefined) throw scimErrors.notFound('No such schema.');
    return found;
  });
}

function listOf(resources: object[]) {
  return { schemas: [LIST_SCHEMA], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources };
}
