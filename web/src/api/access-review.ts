import { api } from './client';
import type { Grantee, Level } from './permissions';

/** One user's access on one path, before and after a change (docs/access-review.md). */
export interface AccessChange {
  user_id: number;
  username: string | null;
  path: string;
  capabilities_before: string[];
  capabilities_after: string[];
  gained: string[];
  lost: string[];
  roles_gained: string[];
  roles_lost: string[];
}

interface DryRun {
  dry_run: true;
  access_difference: AccessChange[];
}

// Each asks the server what the change would do (`dry_run=true`): the same checks as the change, nothing changed.

export async function previewGrant(grant: Grantee & { path: string; permission: Level; recursive: boolean }): Promise<AccessChange[]> {
  return (await api<DryRun>('POST', '/permissions', { body: { ...grant, dry_run: true } })).data.access_difference;
}

export async function previewGrantRemoval(id: number): Promise<AccessChange[]> {
  return (await api<DryRun>('DELETE', `/permissions/${id}`, { query: { dry_run: true } })).data.access_difference;
}

export async function previewMemberAddition(groupId: number, userId: number): Promise<AccessChange[]> {
  return (await api<DryRun>('POST', '/group_users', { body: { group_id: groupId, user_id: userId, dry_run: true } })).data.access_difference;
}

export async function previewMemberRemoval(membershipId: number): Promise<AccessChange[]> {
  return (await api<DryRun>('DELETE', `/group_users/${membershipId}`, { query: { dry_run: true } })).data.access_difference;
}
