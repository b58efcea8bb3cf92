import type { GroupWithMembers } from '../../directory/index.js';
import { recordIdOf } from '../../lib/record-id.js';
import { scimErrors } from '../scim-error.js';
import { workspaceIdOf } from '../workspace-id.js';
import { isoOf, versionOf } from '../resource-meta.js';
import type { SortKind } from '../sorting.js';

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ATRIUM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:Group';

export const GROUP_ATTRIBUTES = ['schemas', 'id', 'externalId', 'displayName', 'members', 'meta', 'workspace_id', 'admins'] as const;
export const GROUP_SUB_ATTRIBUTES = ['value', 'display', 'type', '$ref'] as const;
export const GROUP_FILTERABLE = ['id', 'externalId', 'displayName', 'members', 'members.value', 'members.display', 'meta.created', 'meta.lastModified'];

/** What groups sort on (`sortBy`), and how. */
export const GROUP_SORTABLE: Readonly<Record<string, SortKind>> = {
  id: 'id', externalId: 'caseExactText', displayName: 'text', 'meta.created': 'dateTime', 'meta.lastModified': 'dateTime',
};

interface MemberValue { value: string; display: string; $ref: string; type: 'User' }

export interface ScimGroup {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members: MemberValue[];
  [ATRIUM_GROUP_SCHEMA]: { workspace_id: number; admins: { value: string; display: string }[] };
  meta: { resourceType: 'Group'; created: string; lastModified: string; location: string; version: string };
}

/** An Atrium group in SCIM form; its Group Admins are listed in the Atrium extension. */
export function toScimGroup({ group, members }: GroupWithMembers, base: string): ScimGroup {
  const sorted = [...members].sort((x, y) => x.userId - y.userId);
  const body = {
    schemas: [GROUP_SCHEMA, ATRIUM_GROUP_SCHEMA],
    id: String(group.id),
    ...(group.externalId === null ? {} : { externalId: group.externalId }),
    displayName: group.name,
    members: sorted.map((m) => ({ value: String(m.userId), display: m.username, $ref: `${base}/Users/${m.userId}`, type: 'User' as const })),
    [ATRIUM_GROUP_SCHEMA]: { workspace_id: group.workspaceId, admins: sorted.filter((m) => m.admin).map((m) => ({ value: String(m.userId), display: m.username })) },
  };
  return { ...body, meta: { resourceType: 'Group', created: isoOf(group.createdAt), lastModified: isoOf(group.updatedAt), location: `${base}/Groups/${group.id}`, version: versionOf(body) } };
}

export interface ScimGroupFields {
  name: string;
  userIds: number[];
  /** Undefined when the body does not carry the Atrium extension's `admins`. */
  adminIds: number[] | undefined;
  workspaceId: number | undefined;
  externalId: string | null;
  statesExternalId: boolean;
}

export function groupFieldsOf(body: Record<string, unknown>): ScimGroupFields {
  const lower = Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
  const name = lower.displayname;
  if (typeof name !== 'string' || name.trim() === '') throw scimErrors.invalidValue('"displayName" is required.');
  const extension = lower[ATRIUM_GROUP_SCHEMA.toLowerCase()] as Record<string, unknown> | undefined;
  const externalId = lower.externalid;
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') throw scimErrors.invalidValue('"externalId" must be a string.');
  const workspaceId = workspaceIdOf(extension?.workspace_id);
  return {
    name,
    userIds: idsOf('members', lower.members),
    adminIds: extension?.admins === undefined ? undefined : idsOf('admins', extension.admins),
    workspaceId,
    externalId: (externalId as string | null | undefined) ?? null,
    statesExternalId: 'externalid' in lower,
  };
}

/** Member values are user ids, as SCIM `value`s: strings of digits (numbers are read too). */
export function idsOf(name: string, list: unknown): number[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw scimErrors.invalidValue(`"${name}" must be a list.`);
  return [...new Set(list.map((item) => {
    const value = item !== null && typeof item === 'object' ? (item as { value?: unknown }).value : undefined;
    const id = recordIdOf(value);
    if (id === undefined) throw scimErrors.invalidValue(`Each of "${name}" has a "value" that is a user id.`);
    return id;
  }))];
}
