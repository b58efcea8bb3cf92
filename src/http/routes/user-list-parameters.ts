import type { UserFilter } from '../../directory/index.js';
import { type ListParameterSpec, type ListParameters, timeRangeOf } from '../list-parameters.js';

/** Fields the SDK documents for the users' filters and sorts that Atrium does not keep. */
const NOT_OFFERED: Readonly<Record<string, string>> = {
  password_validity_days: 'Atrium has no password expiry',
  last_desktop_login_at: 'Atrium has no desktop app',
};

/**
 * GET /users's list parameters, as the Files.com SDKs document them: what Atrium keeps is
 * honoured; what the SDK names and Atrium does not keep is refused with the reason
 * (docs/workspaces-users-groups.md has the table). `site_id` sorts as the listing's own order,
 * since every user is of the one site.
 */
export const USER_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'users',
  sortable: ['username', 'name', 'email', 'site_admin', 'disabled', 'last_login_at', 'workspace_id', 'site_id', 'company', 'authenticate_until', 'ssl_required'],
  equals: {
    username: 'text', name: 'text', email: 'text', site_admin: 'boolean', not_site_admin: 'boolean', disabled: 'boolean', last_login_at: 'time', workspace_id: 'workspace',
    company: 'text', ssl_required: 'text', authenticate_until: 'time', partner_id: 'id',
  },
  prefix: ['username', 'name', 'email', 'company'],
  ranges: { last_login_at: 'time', authenticate_until: 'time' },
  notOffered: NOT_OFFERED,
};

/** The filter a GET /users asks for, `search` and `ids` included. */
export function userFilterOf(parameters: ListParameters, search: string | undefined, ids: readonly number[] | undefined): UserFilter {
  const { equals, prefix } = parameters;
  const filter: UserFilter = {};
  if (equals.username !== undefined) filter.username = equals.username as string;
  if (equals.name !== undefined) filter.name = equals.name as string;
  if (equals.email !== undefined) filter.email = equals.email as string;
  if (equals.workspace_id !== undefined) filter.workspaceId = equals.workspace_id as number;
  if (equals.partner_id !== undefined) filter.partnerId = equals.partner_id as number;
  if (equals.disabled !== undefined) filter.disabled = equals.disabled as boolean;
  if (equals.site_admin !== undefined) filter.siteAdmin = equals.site_admin as boolean;
  // not_site_admin=true is site_admin=false; the two at odds match nobody.
  if (equals.not_site_admin !== undefined) {
    const siteAdmin = !(equals.not_site_admin as boolean);
    if (filter.siteAdmin !== undefined && filter.siteAdmin !== siteAdmin) filter.ids = [];
    filter.siteAdmin = siteAdmin;
  }
  if (prefix.username !== undefined) filter.usernamePrefix = prefix.username;
  if (prefix.name !== undefined) filter.namePrefix = prefix.name;
  if (prefix.email !== undefined) filter.emailPrefix = prefix.email;
  const lastLoginAt = timeRangeOf(parameters, 'last_login_at');
  if (lastLoginAt !== undefined) filter.lastLoginAt = lastLoginAt;
  if (equals.company !== undefined) filter.company = equals.company as string;
  if (prefix.company !== undefined) filter.companyPrefix = prefix.company;
  if (equals.ssl_required !== undefined) filter.sslRequired = equals.ssl_required as string;
  const authenticateUntil = timeRangeOf(parameters, 'authenticate_until');
  if (authenticateUntil !== undefined) filter.authenticateUntil = authenticateUntil;
  if (search !== undefined && search !== '') filter.search = search;
  if (ids !== undefined) filter.ids = filter.ids?.length === 0 ? [] : ids;
  return filter;
}


