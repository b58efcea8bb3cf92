import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { Partner } from '../repositories/partners.js';

// The History records of Partner changes (docs/history.md): each belongs to the Partner's
// Workspace, so that Workspace's administrators read it.

/** What History keeps of a Partner: every field but the notes, which fewer people may read than History. */
function partnerFields(partner: Partner): Record<string, unknown> {
  const s = partner.settings;
  return {
    name: partner.name,
    workspace_id: partner.workspaceId,
    root_folder: partner.rootFolder,
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

export function partnerCreated(partner: Partner): HistoryEvent {
  return partnerEvent('partner_create', partner, `Created Partner ${partner.name}`, { id: partner.id, ...partnerFields(partner) });
}

export function partnerDeleted(partner: Partner): HistoryEvent {
  return partnerEvent('partner_destroy', partner, `Deleted Partner ${partner.name}`, { id: partner.id, ...partnerFields(partner) });
}

/** A change: the fields before and after; a change of the notes only as the word. */
export function partnerUpdated(before: Partner, after: Partner): HistoryEvent {
  const was = partnerFields(before);
  const is = partnerFields(after);
  const names = Object.keys(is).filter((name) => was[name] !== is[name]);
  const changed = [...names, ...(before.settings.notes === after.settings.notes ? [] : ['notes'])];
  return partnerEvent('partner_update', after, `Changed Partner ${after.name}: ${changed.join(', ')}`, {
    id: after.id, name: after.name, changed,
    before: Object.fromEntries(names.map((name) => [name, was[name]])),
    after: Object.fromEntries(names.map((name) => [name, is[name]])),
  });
}

function partnerEvent(action: HistoryAction, partner: Partner, display: string, targets: Record<string, unknown>): HistoryEvent {
  return { action, workspaceId: partner.workspaceId, display, targets };
}
