import { Type } from 'typebox';
import { CAPABILITY_ORDER, LEVELS } from '../../../authz/index.js';
import { listParameterQuery } from '../../list-parameters.js';
import { paginationQuery } from '../../pagination.js';
import { PERMISSION_LIST_PARAMETERS } from './permission-list-parameters.js';
import { DryRunQuery } from '../../dry-run.js';
import { RecordId } from '../../schemas.js';
import { SITE_ID } from '../../../identity/index.js';

const MAX_PATH_INPUT = 8192;

// Some clients send every field, null included: null (first, so it is not coerced to 0) means absent.
const OptionalId = Type.Optional(Type.Union([Type.Null(), RecordId({ minimum: 1 })]));
const OptionalName = Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255 })]));

export const LevelSchema = Type.Enum([...LEVELS], { description: 'Permission level (contract 5.1).' });

export const CreatePermissionBody = Type.Object({
  path: Type.String({ maxLength: MAX_PATH_INPUT, description: 'Qualified in context 0, relative to the Workspace root in context N ("" is the root).' }),
  user_id: OptionalId,
  username: OptionalName,
  group_id: OptionalId,
  group_name: OptionalName,
  group_ids: Type.Optional(
    Type.Union([
      Type.Null(),
      Type.String({ maxLength: 2048, description: 'Comma-separated group ids.' }),
      Type.Array(RecordId({ minimum: 1 }), { maxItems: 100 }),
    ], { description: 'ALL-of: only members of every listed group (two or more).' }),
  ),
  partner_id: Type.Optional(Type.Union([Type.Null(), RecordId({ minimum: 1 })], { description: "A Partner: its users hold the grant. On the Partner's root folder or inside it; full, readonly, writeonly or list." })),
  permission: LevelSchema,
  recursive: Type.Optional(Type.Boolean({ default: true })),
  // Files.com's child sites have no counterpart: the one site is accepted, another refused.
  site_id: Type.Optional(Type.Literal(SITE_ID, { description: 'the site\'s own id (GET /site); there are no child sites' })),
  workspace_id: Type.Optional(RecordId()),
  ...DryRunQuery,
});

export const ListPermissionsQuery = Type.Object({
  ...paginationQuery,
  ...listParameterQuery(PERMISSION_LIST_PARAMETERS),
  user_id: Type.Optional(RecordId({ minimum: 1 })),
  group_id: Type.Optional(RecordId({ minimum: 1 })),
  partner_id: Type.Optional(RecordId({ minimum: 1 })),
  path: Type.Optional(Type.String({ maxLength: MAX_PATH_INPUT, description: 'grants that cover the path: on it, or on an ancestor that reaches it' })),
  include_groups: Type.Optional(Type.Boolean()),
});

export const ExplainQuery = Type.Object({
  path: Type.String({ maxLength: MAX_PATH_INPUT }),
  user_id: Type.Optional(RecordId({ minimum: 1 })),
  type: Type.Optional(Type.Enum(['file', 'directory'])),
});

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const PermissionBody = Type.Object({
  id: Type.Integer(),
  path: Type.String(),
  user_id: NullableInteger,
  username: NullableString,
  group_id: NullableInteger,
  group_name: NullableString,
  group_ids: Type.Array(Type.Integer()),
  group_names: Type.Array(Type.String()),
  partner_id: NullableInteger,
  partner_name: NullableString,
  permission: Type.String(),
  recursive: Type.Boolean(),
  workspace_id: Type.Integer(),
});

export const CreatedPermissionBody = Type.Object({
  ...PermissionBody.properties,
  replaced_permission_ids: Type.Array(Type.Integer()),
});

const ReasonBody = Type.Object({
  kind: Type.Enum(['capability', 'role']),
  capability: Type.Union([Type.Enum([...CAPABILITY_ORDER]), Type.Null()]),
  role: Type.Union([Type.Enum(['site_admin', 'workspace_admin', 'folder_admin']), Type.Null()]),
  source: Type.Enum(['site_admin', 'workspace_admin_flag', 'workspace_admin_grant', 'grant', 'hidden_grant']),
  permission_id: NullableInteger,
  path: NullableString,
  permission: NullableString,
  recursive: Type.Union([Type.Boolean(), Type.Null()]),
  via: Type.Union([Type.Enum(['user', 'group', 'groups', 'partner']), Type.Null()]),
  group_id: NullableInteger,
  group_name: NullableString,
  group_ids: Type.Array(Type.Integer()),
  group_names: Type.Array(Type.String()),
  partner_id: NullableInteger,
  partner_name: NullableString,
  workspace_id: NullableInteger,
});

const NearMissReasonBody = Type.Object({
  code: Type.Enum(['not_recursive', 'not_member', 'missing_groups', 'other_user', 'other_partner', 'partner_user', 'invalid_grantee']),
  user_id: NullableInteger,
  username: NullableString,
  group_id: NullableInteger,
  group_name: NullableString,
  partner_id: NullableInteger,
  partner_name: NullableString,
  missing_group_ids: Type.Array(Type.Integer()),
  missing_group_names: Type.Array(Type.String()),
});

const NearMissBody = Type.Object({
  ...PermissionBody.properties,
  reasons: Type.Array(NearMissReasonBody),
});

export const ExplainBody = Type.Object({
  path: Type.String(),
  type: Type.Enum(['file', 'directory']),
  path_exists: Type.Boolean({ description: 'Whether a file or folder stands at the path, as far as the caller may see: one the caller may not see is reported as absent.' }),
  workspace_id: Type.Integer(),
  user_id: NullableInteger,
  site_admin: Type.Boolean(),
  workspace_admin: Type.Boolean(),
  folder_admin: Type.Boolean(),
  capabilities: Type.Array(Type.String()),
  reasons: Type.Array(ReasonBody),
  near_misses: Type.Array(NearMissBody),
});
