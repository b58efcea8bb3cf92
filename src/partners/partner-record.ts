import type { Partner } from '../repositories/partners.js';

/**
 * A Partner's own fields under the names Files.com gives them, as the API answers them and as
 * History records them. Notes are left out: fewer people may read them than read either (the
 * API adds them for those who may; History never keeps them).
 */
export function partnerRecord(partner: Partner) {
  const s = partner.settings;
  return {
    name: partner.name,
    root_folder: partner.rootFolder,
    workspace_id: partner.workspaceId,
    tags: s.tags,
    allowed_ips: s.allowedIps,
    allow_bypassing_2fa_policies: s.allowBypassing2faPolicies,
    allow_credential_changes: s.allowCredentialChanges,
    allow_providing_gpg_keys: s.allowProvidingGpgKeys,
    allow_user_creation: s.allowUserCreation,
    cc_emails_to_responsible_party: s.ccEmailsToResponsibleParty,
    responsible_user_id: s.responsibleUserId,
    responsible_group_id: s.responsibleGroupId,
  };
}
