import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { Partner } from '../repositories/partners.js';
import { partnerRecord } from './partner-record.js';

// The History records of Partner changes (docs/history.md): each belongs to the Partner's
// Workspace, so that Workspace's administrators read it.

export function partnerCreated(partner: Partner): HistoryEvent {
  return partnerEvent('partner_create', partner, `Created Partner ${partner.name}`, { id: partner.id, ...partnerRecord(partner) });
}

export function partnerDeleted(partner: Partner): HistoryEvent {
  return partnerEvent('partner_destroy', partner, `Deleted Partner ${partner.name}`, { id: partner.id, ...partnerRecord(partner) });
}

/** A change: the fields before and after; a change of the notes only as the word. */
export function partnerUpdated(before: Partner, after: Partner): HistoryEvent {
  const was: Record<string, unknown> = partnerRecord(before);
  const is: Record<string, unknown> = partnerRecord(after);
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
