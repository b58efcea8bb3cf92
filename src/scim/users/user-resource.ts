import type { NameParts, User, UserGroupIds } from '../../directory/index.js';
import { scimErrors } from '../scim-error.js';
import { recordIdOf } from '../../lib/record-id.js';
import { workspaceIdOf } from '../workspace-id.js';
import { isoOf, versionOf } from '../resource-meta.js';
import type { SortKind } from '../sorting.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ATRIUM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:User';

export const USER_ATTRIBUTES = ['schemas', 'id', 'externalId', 'userName', 'name', 'displayName', 'emails', 'active', 'password', 'groups', 'meta', 'workspace_id', 'partner_id'] as const;
export const USER_SUB_ATTRIBUTES = ['formatted', 'givenName', 'familyName', 'middleName', 'value', 'type', 'primary', 'display'] as const;

/** What a user can be filtered on. */
export const USER_FILTERABLE = ['id', 'externalId', 'userName', 'displayName', 'name.formatted', 'emails', 'emails.value', 'emails.type', 'emails.primary', 'active', 'meta.created', 'meta.lastModified'];

/** What users sort on (`sortBy`), and how. */
export const USER_SORTABLE: Readonly<Record<string, SortKind>> = {
  id: 'id', externalId: 'caseExactText', userName: 'text', displayName: 'text', 'name.formatted': 'text', 'name.givenName': 'text',
  'name.familyName': 'text', emails: 'text', 'emails.value': 'text', active: 'boolean', 'meta.created': 'dateTime', 'meta.lastModified': 'dateTime',
};

export interface ScimEmail { value: string; type?: string; primary?: boolean }
export interface ScimName { formatted: string; givenName?: string; familyName?: string }

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: ScimName;
  displayName: string;
  emails?: ScimEmail[];
  active: boolean;
  groups: { value: string; $ref: string; display?: string }[];
  /** `partner_id` only for a Partner user (docs/partners.md). */
  [ATRIUM_USER_SCHEMA]: { workspace_id: number; partner_id?: number };
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string; version: string };
}

/**
 * An Atrium user in SCIM form. `groups` is read-only: memberships are changed through Groups. Each
 * group carries its name as `display` when the caller may see the group (`groupNames`).
 */
export function toScimUser(user: User, groups: UserGroupIds | undefined, groupNames: ReadonlyMap<number, string>, base: string): ScimUser {
  const body = {
    schemas: [USER_SCHEMA, ATRIUM_USER_SCHEMA],
    id: String(user.id),
    ...(user.externalId === null ? {} : { externalId: user.externalId }),
    userName: user.username,
    name: {
      formatted: user.name,
      ...(user.nameParts.givenName === null ? {} : { givenName: user.nameParts.givenName }),
      ...(user.nameParts.familyName === null ? {} : { familyName: user.nameParts.familyName }),
    },
    displayName: user.name,
    ...(user.email === '' ? {} : { emails: [{ value: user.email, type: 'work', primary: true }] }),
    active: !user.disabled,
    groups: (groups?.groupIds ?? []).map((id) => {
      const display = groupNames.get(id);
      return { value: String(id), $ref: `${base}/Groups/${id}`, ...(display === undefined ? {} : { display }) };
    }),
    [ATRIUM_USER_SCHEMA]: { workspace_id: user.workspaceId, ...(user.partnerId === null ? {} : { partner_id: user.partnerId }) },
  };
  return { ...body, meta: { resourceType: 'User', created: isoOf(user.createdAt), lastModified: isoOf(user.updatedAt), location: `${base}/Users/${user.id}`, version: versionOf(body) } };
}

/** The user fields a SCIM body (POST, PUT, or a patched resource) states. */
export interface ScimUserFields {
  username: string;
  name: string;
  /** `name.givenName` and `name.familyName` as sent; null where not sent. */
  nameParts: NameParts;
  email: string;
  active: boolean;
  password: string | undefined;
  workspaceId: number | undefined;
  /** The Atrium extension's `partner_id`: the Partner of a user provisioned into one. */
  partnerId: number | undefined;
  externalId: string | null;
}

export function fieldsOf(body: Record<string, unknown>): ScimUserFields {
  const lower = Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
  const username = lower.username;
  if (typeof username !== 'string' || username.trim() === '') throw scimErrors.invalidValue('"userName" is required.');
  return {
    username,
    name: nameOf(lower),
    nameParts: namePartsOf(lower.name),
    email: primaryEmail(lower.emails),
    active: activeOf(lower.active),
    password: optionalString('password', lower.password),
    workspaceId: workspaceIdOf(atriumExtension(body)?.workspace_id),
    partnerId: partnerIdOf(atriumExtension(body)?.partner_id),
    externalId: optionalString('externalId', lower.externalid) ?? null,
  };
}

function nameOf(lower: Record<string, unknown>): string {
  const name = lower.name;
  if (name !== undefined && name !== null) {
    if (typeof name !== 'object') throw scimErrors.invalidValue('"name" must be an object.');
    const parts = Object.fromEntries(Object.entries(name).map(([k, v]) => [k.toLowerCase(), v]));
    if (typeof parts.formatted === 'string' && parts.formatted.trim() !== '') return parts.formatted;
    const joined = [parts.givenname, parts.middlename, parts.familyname].filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
    if (joined !== '') return joined;
  }
  return optionalString('displayName', lower.displayname) ?? '';
}

/** The parts of a `name` object (its sub-attributes in any letter case); null where absent or not text. */
export function namePartsOf(name: unknown): NameParts {
  if (name === null || typeof name !== 'object') return { givenName: null, familyName: null };
  const parts = Object.fromEntries(Object.entries(name).map(([k, v]) => [k.toLowerCase(), v]));
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { givenName: text(parts.givenname), familyName: text(parts.familyname) };
}

function primaryEmail(emails: unknown): string {
  if (emails === undefined || emails === null) return '';
  if (!Array.isArray(emails)) throw scimErrors.invalidValue('"emails" must be a list.');
  const usable = emails.filter((e): e is { value: string; primary?: unknown } => e !== null && typeof e === 'object' && typeof (e as { value?: unknown }).value === 'string');
  const chosen = usable.find((e) => e.primary === true || e.primary === 'true' || e.primary === 'True') ?? usable[0];
  return chosen?.value ?? '';
}

/** Entra ID sends `"active": "False"` as a string; both forms are read. */
export function activeOf(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimErrors.invalidValue('"active" must be true or false.');
}

function optionalString(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw scimErrors.invalidValue(`"${name}" must be a string.`);
  return value;
}

/** The Atrium extension's object in a body (its urn in any letter case); undefined when not sent. */
function atriumExtension(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const key = Object.keys(body).find((k) => k.toLowerCase() === ATRIUM_USER_SCHEMA.toLowerCase());
  const extension = key === undefined ? undefined : body[key];
  if (extension === undefined || extension === null) return undefined;
  if (typeof extension !== 'object') throw scimErrors.invalidValue(`"${ATRIUM_USER_SCHEMA}" must be an object.`);
  return extension as Record<string, unknown>;
}

function partnerIdOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const id = recordIdOf(value);
  if (id === undefined) throw scimErrors.invalidValue('"partner_id" must be a Partner id.');
  return id;
}
