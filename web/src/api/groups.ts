import { api } from './client';

export interface Group {
  id: number;
  name: string;
  workspace_id: number;
  user_ids: string;
  admin_ids: string;
}

export interface Membership {
  id: number;
  group_id: number;
  user_id: number;
  admin: boolean;
  username: string;
}

export async function listGroups(): Promise<Group[]> {
  return (await api<Group[]>('GET', '/groups', { query: { per_page: 1000 } })).data;
}

export async function createGroup(name: string): Promise<Group> {
  return (await api<Group>('POST', '/groups', { body: { name } })).data;
}

export async function renameGroup(id: number, name: string): Promise<Group> {
  return (await api<Group>('PATCH', `/groups/${id}`, { body: { name } })).data;
}

export async function deleteGroup(id: number): Promise<void> {
  await api('DELETE', `/groups/${id}`);
}

export async function listMembers(groupId: number): Promise<Membership[]> {
  return (await api<Membership[]>('GET', '/group_users', { query: { group_id: groupId, per_page: 1000 } })).data;
}

export async function addMember(groupId: number, userId: number): Promise<void> {
  await api('POST', '/group_users', { body: { group_id: groupId, user_id: userId } });
}

export async function setGroupAdmin(membershipId: number, admin: boolean): Promise<void> {
  await api('PATCH', `/group_users/${membershipId}`, { body: { admin } });
}

export async function removeMember(membershipId: number): Promise<void> {
  await api('DELETE', `/group_users/${membershipId}`);
}
