import { Type } from 'typebox';
import { CAPABILITY_ORDER, LEVELS } from '../../../authz/index.js';
import { paginationQuery } from '../../pagination.js';

// Schemas of the access review's reach listing and effective-access export (docs/permissions.md).

const MAX_PATH_INPUT = 8192;
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const RoleName = Type.Enum(['site_admin', 'workspace_admin', 'folder_admin']);

export const ReachQuery = Type.Object({
  ...paginationQuery,
  path: Type.Optional(Type.String({ maxLength: MAX_PATH_INPUT, description: 'Qualified in context 0, relative to the Workspace root in context N ("" is the root).' })),
  // The SDKs' filter[...] spelling of the same parameter.
  filter: Type.Optional(Type.Object({ path: Type.Optional(Type.String({ maxLength: MAX_PATH_INPUT })) })),
  type: Type.Optional(Type.Enum(['file', 'directory'], { description: 'What stands at the path, when it does not exist yet or the caller may not see it (as in explain); a file by default.' })),
});

export const ReachCauseBody = Type.Object({
  source: Type.Enum(['site_admin', 'workspace_admin_flag', 'grant', 'hidden_grant'], {
    description: '`hidden_grant`: a grant the caller may not list gives it; its details are withheld.',
  }),
  permission_id: NullableInteger,
  path: NullableString,
  permission: Type.Union([Type.Enum([...LEVELS]), Type.Null()]),
  recursive: Type.Union([Type.Boolean(), Type.Null()]),
  applies: Type.Union([Type.Enum(['direct', 'group', 'all_of', 'partner']), Type.Null()], {
    description: 'How the grant names the user: `direct` (user_id), `group` (group_id), `all_of` (group_ids, a member of every one), `partner` (partner_id, one of its users).',
  }),
  group_id: NullableInteger,
  group_name: NullableString,
  group_ids: Type.Array(Type.Integer()),
  group_names: Type.Array(Type.String()),
  partner_id: NullableInteger,
  partner_name: NullableString,
  role: Type.Union([RoleName, Type.Null()], { description: 'The administrator role this reason gives on the path.' }),
  workspace_id: NullableInteger,
});

export const ReachRowBody = Type.Object({
  user_id: Type.Integer(),
  username: Type.String(),
  workspace_id: Type.Integer({ description: 'The Workspace the user belongs to.' }),
  permission: Type.Enum([...LEVELS], { description: 'The effective level: `admin` with `manage`, otherwise the highest level of the grants that apply.' }),
  capabilities: Type.Array(Type.Enum([...CAPABILITY_ORDER])),
  role: Type.Union([RoleName, Type.Null()], { description: 'The widest administrator role held on the path, or null.' }),
  roles: Type.Array(RoleName),
  because: Type.Array(ReachCauseBody),
});

export const ExportCsvBody = Type.String({
  description: 'RFC 4180 CSV (text/csv, CRLF line ends, a header row): path, user_id, username, workspace_id, permission, capabilities, role, permission_ids, because.',
});
