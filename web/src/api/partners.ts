import { api } from './client';

/** A Partner as the API answers it (docs/partners.md). `notes` only for its Workspace's administrators. */
export interface Partner {
  id: number;
  name: string;
  root_folder: string;
  workspace_id: number;
  notes?: string;
  tags: string;
  allowed_ips: string;
  allow_user_creation: boolean;
  allow_credential_changes: boolean;
  allow_bypassing_2fa_policies: boolean;
  allow_providing_gpg_keys: boolean;
  cc_emails_to_responsible_party: boolean;
  responsible_user_id: number | null;
  responsible_group_id: number | null;
  user_ids: number[];
  partner_admin_ids: number[];
}

/** What an administrator sets on a Partner: everything but what the server keeps for itself. */
export type PartnerSettings = Omit<Partner, 'id' | 'workspace_id' | 'user_ids' | 'partner_admin_ids' | 'notes'> & { notes: string };

/**
 * The Partners of one Workspace. A Site Administrator in the Default Workspace would otherwise
 * see every Workspace's, whose root folders and grants are written in another Workspace's paths:
 * the console shows a Workspace's Partners in that Workspace, as it does its users.
 */
export async function listPartners(workspaceId: number): Promise<Partner[]> {
  return (await api<Partner[]>('GET', '/partners', { query: { per_page: 1000, 'filter[workspace_id]': workspaceId } })).data;
}

export async function getPartner(id: number, signal?: AbortSignal): Promise<Partner> {
  return (await api<Partner>('GET', `/partners/${id}`, signal === undefined ? {} : { signal })).data;
}

export async function createPartner(settings: PartnerSettings): Promise<Partner> {
  return (await api<Partner>('POST', '/partners', { body: settings })).data;
}

export async function updatePartner(id: number, changes: Partial<PartnerSettings>): Promise<Partner> {
  return (await api<Partner>('PATCH', `/partners/${id}`, { body: changes })).data;
}

export async function deletePartner(id: number): Promise<void> {
  await api('DELETE', `/partners/${id}`);
}
