import { api } from './client';

export const LEVELS = ['full', 'readonly', 'writeonly', 'list', 'admin', 'history', 'bundle'] as const;
export type Level = (typeof LEVELS)[number];

export interface Permission {
  id: number;
  path: string;
  user_id: number | null;
  username: string | null;
  group_id: number | null;
  group_name: string | null;
  group_names: string[];
  /** A grant to a Partner: its users reach exactly what their Partner's grants give. */
  partner_id?: number | null;
  partner_name?: string | null;
  permission: Level;
  recursive: boolean;
}

export type Grantee = { user_id: number } | { group_id: number } | { partner_id: number };

/** The levels a Partner may be given: no administration, sharing or history. */
export const PARTNER_LEVELS = ['full', 'readonly', 'writeonly', 'list'] as const;
export type PartnerLevel = (typeof PARTNER_LEVELS)[number];

export async function listPermissions(query: { path?: string; user_id?: number; group_id?: number; include_groups?: boolean }): Promise<Permission[]> {
  return (await api<Permission[]>('GET', '/permissions', { query: { per_page: 1000, ...query } })).data;
}

export async function listPartnerPermissions(partnerId: number): Promise<Permission[]> {
  return (await api<Permission[]>('GET', '/permissions', { query: { per_page: 1000, 'filter[partner_id]': partnerId } })).data;
}

export async function createPartnerPermission(grant: { partner_id: number; path: string; permission: PartnerLevel; recursive: boolean }): Promise<void> {
  await api('POST', '/permissions', { body: grant });
}

export async function createPermission(grant: Grantee & { path: string; permission: Level; recursive: boolean }): Promise<{ replaced_permission_ids: number[] }> {
  return (await api<Permission & { replaced_permission_ids: number[] }>('POST', '/permissions', { body: grant })).data;
}

export async function deletePermission(id: number): Promise<void> {
  await api('DELETE', `/permissions/${id}`);
}

/** Who a grant is given to, in words. */
export function granteeText(p: Permission): string {
  if (p.user_id !== null) return `user ${p.username ?? p.user_id}`;
  if (p.group_id !== null) return `group ${p.group_name ?? p.group_id}`;
  if (p.partner_id !== undefined && p.partner_id !== null) return `Partner ${p.partner_name ?? p.partner_id}`;
  return `members of all of ${p.group_names.join(', ')}`;
}
