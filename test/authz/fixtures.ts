import type { Grant, Grantee, Level, Subject, Target } from '../../src/authz/index.js';

export function subject(fields: Partial<Omit<Subject, 'groupIds'>> & { groups?: number[] } = {}): Subject {
  return {
    userId: fields.userId ?? 1,
    workspaceId: fields.workspaceId ?? 0,
    siteAdmin: fields.siteAdmin ?? false,
    workspaceAdmin: fields.workspaceAdmin ?? false,
    groupIds: new Set(fields.groups ?? []),
    partnerId: fields.partnerId ?? null,
  };
}

export const toUser = (userId: number): Grantee => ({ kind: 'user', userId });
export const toGroup = (groupId: number): Grantee => ({ kind: 'group', groupId });
export const toAllOf = (...groupIds: number[]): Grantee => ({ kind: 'groups', groupIds });
export const toPartner = (partnerId: number): Grantee => ({ kind: 'partner', partnerId });

let nextId = 1000;

export function grant(pathKey: string, grantee: Grantee, level: Level, recursive = true, id = nextId++): Grant {
  return { id, pathKey, grantee, level, recursive };
}

export const file = (pathKey: string): Target => ({ pathKey, type: 'file' });
export const dir = (pathKey: string): Target => ({ pathKey, type: 'directory' });
